package pedidos.receptor.entrada;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import pedidos.receptor.gravacao.ObservadorDoReceptor;

/**
 * Times every request to the webhook path, including those Spring MVC refuses before the controller
 * (405, 415), and records it with the outcome the controller or the error handler marked, or one
 * derived from the status.
 */
@Component
final class FiltroDeMetricas extends OncePerRequestFilter {

  private static final String RESULTADO = FiltroDeMetricas.class.getName() + ".resultado";

  private final ObservadorDoReceptor observador;

  FiltroDeMetricas(ObservadorDoReceptor observador) {
    this.observador = observador;
  }

  static void marcar(HttpServletRequest requisicao, String resultado) {
    requisicao.setAttribute(RESULTADO, resultado);
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest requisicao) {
    return !EndpointDaLoja.CAMINHO.equals(requisicao.getRequestURI());
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest requisicao, HttpServletResponse resposta, FilterChain cadeia)
      throws ServletException, IOException {
    long inicio = System.nanoTime();
    try {
      cadeia.doFilter(requisicao, resposta);
    } finally {
      Object resultado = requisicao.getAttribute(RESULTADO);
      observador.requisicao(
          resultado != null ? resultado.toString() : porStatus(resposta.getStatus()),
          System.nanoTime() - inicio);
    }
  }

  private static String porStatus(int status) {
    return switch (status) {
      case 405 -> "metodo_nao_permitido";
      case 406 -> "nao_aceitavel";
      case 415 -> "tipo_de_conteudo_invalido";
      default -> "http_" + status;
    };
  }
}
