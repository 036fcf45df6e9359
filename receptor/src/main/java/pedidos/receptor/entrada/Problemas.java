package pedidos.receptor.entrada;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import org.springframework.stereotype.Component;
import pedidos.contrato.MascaraDeEmail;
import pedidos.receptor.ReceptorProperties;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;
import tools.jackson.databind.json.JsonMapper;

/**
 * The problem+json of a refused delivery, and of an unexpected failure, rendered once for both ways
 * a request reaches the receptor: {@link AtalhoDoWebhook} writes it itself, {@link TratadorDeErros}
 * hands it to Spring MVC. The body is the {@link ProblemDetail} Spring renders for an
 * {@code @ExceptionHandler} (type, title, status, detail, instance as the request path, then {@code
 * motivo}), serialized with the application's Jackson mapper and the mixin Spring's message
 * converter adds: the same bytes whichever path answered.
 */
@Component
final class Problemas {

  private static final Logger log = LoggerFactory.getLogger(Problemas.class);

  private final JsonMapper json;
  private final String esperaSugerida;

  Problemas(JsonMapper json, ReceptorProperties propriedades) {
    // What JacksonJsonHttpMessageConverter does to the mapper it is given.
    this.json =
        json.rebuild().addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class).build();
    long segundos = Math.max(1, (propriedades.esperaSugerida().toMillis() + 999) / 1000);
    this.esperaSugerida = Long.toString(segundos);
  }

  /**
   * The refusal's status, title, detail and {@code motivo}; its headers, and a 503's Retry-After.
   */
  Problema daRecusa(Recusa recusa, HttpServletRequest requisicao) {
    TipoDeRecusa tipo = recusa.tipo();
    ProblemDetail problema = ProblemDetail.forStatusAndDetail(tipo.status(), recusa.getMessage());
    problema.setTitle(tipo.titulo());
    problema.setInstance(URI.create(requisicao.getRequestURI()));
    problema.setProperty("motivo", recusa.motivo());
    Map<String, String> cabecalhos = new LinkedHashMap<>(recusa.cabecalhos());
    if (tipo.status() == HttpStatus.SERVICE_UNAVAILABLE) {
      cabecalhos.put(HttpHeaders.RETRY_AFTER, esperaSugerida);
    }
    return new Problema(tipo.status().value(), cabecalhos, json.writeValueAsBytes(problema));
  }

  /** A bare 500 for what no refusal covers; the details go to the log only. */
  Problema inesperado(Exception erro, HttpServletRequest requisicao) {
    log.error(
        "Unexpected failure on {} {}",
        requisicao.getMethod(),
        requisicao.getRequestURI(),
        // Whatever failed may quote the body it was reading.
        MascaraDeEmail.mascararNaExcecao(erro));
    ProblemDetail problema =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.INTERNAL_SERVER_ERROR, "The event could not be processed.");
    problema.setInstance(URI.create(requisicao.getRequestURI()));
    return new Problema(
        HttpStatus.INTERNAL_SERVER_ERROR.value(), Map.of(), json.writeValueAsBytes(problema));
  }

  /**
   * A rendered problem. Its content type is fixed whatever the Accept header says: the client gets
   * the problem, never a 406.
   */
  record Problema(int status, Map<String, String> cabecalhos, byte[] corpo) {

    void escrever(HttpServletResponse resposta) throws IOException {
      resposta.setStatus(status);
      cabecalhos.forEach(resposta::setHeader);
      resposta.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
      resposta.setContentLength(corpo.length);
      resposta.getOutputStream().write(corpo);
    }

    ResponseEntity<byte[]> comoEntidade() {
      HttpHeaders todos = new HttpHeaders();
      cabecalhos.forEach(todos::set);
      todos.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
      return new ResponseEntity<>(corpo, todos, status);
    }
  }
}
