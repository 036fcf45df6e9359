package pedidos.receptor.entrada;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import pedidos.receptor.desfecho.Recusa;

/**
 * Every error Spring MVC handles on the webhook port as {@code application/problem+json}: the
 * receptor's own refusals and, as a last resort, anything unexpected as a bare 500 whose details
 * stay in the log, both rendered by {@link Problemas} as the hot path renders them; and Spring
 * MVC's own (405, 415, 404... through {@link ResponseEntityExceptionHandler}).
 */
@RestControllerAdvice
final class TratadorDeErros extends ResponseEntityExceptionHandler {

  private final Problemas problemas;

  TratadorDeErros(Problemas problemas) {
    this.problemas = problemas;
  }

  @ExceptionHandler(Recusa.class)
  ResponseEntity<byte[]> recusa(Recusa recusa, HttpServletRequest requisicao) {
    AtalhoDoWebhook.marcar(requisicao, recusa.tipo().resultado());
    return problemas.daRecusa(recusa, requisicao).comoEntidade();
  }

  /**
   * Spring MVC's own refusals (405, 415, 404...) as problem+json whatever the Accept header says:
   * negotiating an error body would turn a bad Accept header into an empty answer.
   */
  @Override
  protected ResponseEntity<Object> handleExceptionInternal(
      Exception erro,
      Object corpo,
      HttpHeaders cabecalhos,
      HttpStatusCode status,
      WebRequest requisicao) {
    HttpHeaders comTipo = HttpHeaders.copyOf(cabecalhos);
    if (corpo instanceof ProblemDetail || corpo == null) {
      comTipo.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
    }
    return super.handleExceptionInternal(erro, corpo, comTipo, status, requisicao);
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<byte[]> inesperado(Exception erro, HttpServletRequest requisicao) {
    AtalhoDoWebhook.marcar(requisicao, "erro_interno");
    return problemas.inesperado(erro, requisicao).comoEntidade();
  }
}
