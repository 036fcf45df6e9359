package pedidos.receptor.entrada;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Works around spring-framework#36971 (fixed in 7.0.9; Boot 4.0.7 brings 7.0.8): a media type that
 * starts with a double quote, such as {@code "application/json"} with the quotes, makes the parser
 * throw {@code StringIndexOutOfBoundsException} instead of {@code InvalidMediaTypeException}, and
 * any such {@code Content-Type} or {@code Accept} header became a 500.
 *
 * <p>Such a header is replaced by one Spring rejects the normal way, so the request gets the 415
 * any other unparseable content type gets. Remove once the framework is at 7.0.9 or later.
 *
 * <p>Right after {@link AtalhoDoWebhook}, which sends such a request down the chain to here (it
 * parses the content type itself, and a delivery it serves never reaches a parser of Accept).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
final class FiltroDeTiposDeMidia extends OncePerRequestFilter {

  /** Not a media type (no slash): Spring refuses it with InvalidMediaTypeException, hence 415. */
  static final String TIPO_INVALIDO = "invalido";

  @Override
  protected void doFilterInternal(
      HttpServletRequest requisicao, HttpServletResponse resposta, FilterChain cadeia)
      throws ServletException, IOException {
    boolean tipoQuebrado = quebraOParser(requisicao.getContentType());
    boolean aceitaQuebrado = false;
    for (Enumeration<String> valores = requisicao.getHeaders(HttpHeaders.ACCEPT);
        valores != null && valores.hasMoreElements(); ) {
      aceitaQuebrado |= quebraOParser(valores.nextElement());
    }
    if (tipoQuebrado || aceitaQuebrado) {
      requisicao = new Saneada(requisicao, tipoQuebrado, aceitaQuebrado);
    }
    cadeia.doFilter(requisicao, resposta);
  }

  static boolean quebraOParser(String valor) {
    if (valor == null || valor.isEmpty()) {
      return false;
    }
    try {
      MediaType.parseMediaTypes(valor);
      return false;
    } catch (InvalidMediaTypeException e) {
      return false;
    } catch (RuntimeException e) {
      return true;
    }
  }

  private static final class Saneada extends HttpServletRequestWrapper {
    private final boolean tipoQuebrado;
    private final boolean aceitaQuebrado;

    Saneada(HttpServletRequest requisicao, boolean tipoQuebrado, boolean aceitaQuebrado) {
      super(requisicao);
      this.tipoQuebrado = tipoQuebrado;
      this.aceitaQuebrado = aceitaQuebrado;
    }

    @Override
    public String getContentType() {
      return tipoQuebrado ? TIPO_INVALIDO : super.getContentType();
    }

    @Override
    public String getHeader(String nome) {
      String substituto = substituto(nome);
      return substituto != null ? substituto : super.getHeader(nome);
    }

    @Override
    public Enumeration<String> getHeaders(String nome) {
      String substituto = substituto(nome);
      return substituto != null
          ? Collections.enumeration(java.util.List.of(substituto))
          : super.getHeaders(nome);
    }

    private String substituto(String nome) {
      if (tipoQuebrado && HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(nome)) {
        return TIPO_INVALIDO;
      }
      if (aceitaQuebrado && HttpHeaders.ACCEPT.equalsIgnoreCase(nome)) {
        return MediaType.ALL_VALUE;
      }
      return null;
    }
  }
}
