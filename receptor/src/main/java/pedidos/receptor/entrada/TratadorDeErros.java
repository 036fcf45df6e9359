package pedidos.receptor.entrada;

import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import pedidos.contrato.MascaraDeEmail;
import pedidos.receptor.ReceptorProperties;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;

/**
 * Every error as {@code application/problem+json}: the receptor's own refusals, Spring MVC's (405,
 * 415, 404... through {@link ResponseEntityExceptionHandler}) and, as a last resort, anything
 * unexpected as a bare 500 whose details stay in the log.
 */
@RestControllerAdvice
final class TratadorDeErros extends ResponseEntityExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(TratadorDeErros.class);

  private final String esperaSugerida;

  TratadorDeErros(ReceptorProperties propriedades) {
    long segundos = Math.max(1, (propriedades.esperaSugerida().toMillis() + 999) / 1000);
    this.esperaSugerida = Long.toString(segundos);
  }

  @ExceptionHandler(Recusa.class)
  ResponseEntity<ProblemDetail> recusa(Recusa recusa, HttpServletRequest requisicao) {
    TipoDeRecusa tipo = recusa.tipo();
    FiltroDeMetricas.marcar(requisicao, tipo.resultado());
    ProblemDetail problema = ProblemDetail.forStatusAndDetail(tipo.status(), recusa.getMessage());
    problema.setTitle(tipo.titulo());
    problema.setProperty("motivo", recusa.motivo());
    HttpHeaders cabecalhos = new HttpHeaders();
    recusa.cabecalhos().forEach(cabecalhos::set);
    if (tipo.status() == HttpStatus.SERVICE_UNAVAILABLE) {
      cabecalhos.set(HttpHeaders.RETRY_AFTER, esperaSugerida);
    }
    // Fixed, whatever the Accept header says: the client gets the problem, not a 406.
    cabecalhos.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
    return new ResponseEntity<>(problema, cabecalhos, tipo.status());
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
  ResponseEntity<ProblemDetail> inesperado(Exception erro, HttpServletRequest requisicao) {
    log.error(
        "Unexpected failure on {} {}",
        requisicao.getMethod(),
        requisicao.getRequestURI(),
        // Whatever failed may quote the body it was reading.
        MascaraDeEmail.mascararNaExcecao(erro));
    FiltroDeMetricas.marcar(requisicao, "erro_interno");
    ProblemDetail problema =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.INTERNAL_SERVER_ERROR, "The event could not be processed.");
    HttpHeaders cabecalhos = new HttpHeaders();
    cabecalhos.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
    return new ResponseEntity<>(problema, cabecalhos, HttpStatus.INTERNAL_SERVER_ERROR);
  }
}
