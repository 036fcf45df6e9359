package pedidos.receptor.entrada;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;
import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.gravacao.ObservadorDoReceptor;

/**
 * The webhook path's first filter ({@link RegistroDoAtalho}). A POST with a JSON content type, the
 * one request the store sends, is served here, without the rest of the filter chain or Spring MVC:
 * for an answer that is one of three ready-made byte arrays, they cost more CPU than the receptor's
 * own work (handler lookup, four header argument resolvers, return-value handling with message
 * converter selection, five filters; docs/BENCHMARKS.md, "Receptor"). Any other request to the path
 * goes down the chain to Spring MVC, which answers it (405, 415) as before.
 *
 * <p>Every request to the path is timed here ({@code receptor_requisicoes_seconds}), by the outcome
 * the hot path, the endpoint or the error handler {@link #marcar marked}, or one derived from the
 * status for what MVC refused before either ran.
 */
final class AtalhoDoWebhook implements Filter {

  private static final String RESULTADO = AtalhoDoWebhook.class.getName() + ".resultado";
  private static final MediaType JSON_COM_SUFIXO =
      MediaType.parseMediaType(EndpointDaLoja.JSON_COM_SUFIXO);

  private final AtendimentoDaLoja atendimento;
  private final Problemas problemas;
  private final ObservadorDoReceptor observador;

  AtalhoDoWebhook(
      AtendimentoDaLoja atendimento, Problemas problemas, ObservadorDoReceptor observador) {
    this.atendimento = atendimento;
    this.problemas = problemas;
    this.observador = observador;
  }

  /** The outcome a request on the MVC path came to, for its timer. */
  static void marcar(HttpServletRequest requisicao, String resultado) {
    requisicao.setAttribute(RESULTADO, resultado);
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain cadeia)
      throws IOException, ServletException {
    HttpServletRequest requisicao = (HttpServletRequest) req;
    HttpServletResponse resposta = (HttpServletResponse) res;
    long inicio = System.nanoTime();
    String resultado = null;
    try {
      if (eUmaEntrega(requisicao)) {
        resultado = servir(requisicao, resposta);
      } else {
        cadeia.doFilter(requisicao, resposta);
      }
    } finally {
      if (resultado == null) {
        Object marcado = requisicao.getAttribute(RESULTADO);
        resultado = marcado != null ? marcado.toString() : porStatus(resposta.getStatus());
      }
      observador.requisicao(resultado, System.nanoTime() - inicio);
    }
  }

  private String servir(HttpServletRequest requisicao, HttpServletResponse resposta)
      throws IOException {
    Desfecho desfecho;
    try {
      desfecho = atendimento.atender(requisicao);
    } catch (Recusa recusa) {
      problemas.daRecusa(recusa, requisicao).escrever(resposta);
      return recusa.tipo().resultado();
    } catch (RuntimeException erro) {
      problemas.inesperado(erro, requisicao).escrever(resposta);
      return "erro_interno";
    }
    byte[] corpo = AtendimentoDaLoja.resposta(desfecho);
    resposta.setStatus(HttpServletResponse.SC_OK);
    resposta.setContentType(MediaType.APPLICATION_JSON_VALUE);
    resposta.setContentLength(corpo.length);
    resposta.getOutputStream().write(corpo);
    return desfecho.rotulo();
  }

  /**
   * What the endpoint's mapping matches: POST, and a content type that {@code application/json} or
   * {@code application/*+json} includes, parsed as Spring parses it. No content type, or one that
   * does not parse (including the quoted ones {@link FiltroDeTiposDeMidia} is about), goes to MVC
   * for its 415.
   */
  static boolean eUmaEntrega(HttpServletRequest requisicao) {
    if (!"POST".equals(requisicao.getMethod())) {
      return false;
    }
    String tipo = requisicao.getContentType();
    if (tipo == null || tipo.isEmpty()) {
      return false;
    }
    MediaType tipoDeMidia;
    try {
      tipoDeMidia = MediaType.parseMediaType(tipo);
    } catch (RuntimeException e) {
      return false;
    }
    return MediaType.APPLICATION_JSON.includes(tipoDeMidia)
        || JSON_COM_SUFIXO.includes(tipoDeMidia);
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
