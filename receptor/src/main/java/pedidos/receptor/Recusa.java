package pedidos.receptor;

import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import pedidos.contrato.AssinaturaDeWebhook;

/**
 * Why a delivery was not answered 200. Each kind carries its HTTP status, a short stable code for
 * clients and dashboards ({@link #motivo()}) and the outcome tag of the request metric. The message
 * is the problem's {@code detail}: it is shown to the caller, so it never holds a secret or a stack
 * trace.
 */
abstract sealed class Recusa extends RuntimeException {

  private final String motivo;

  private Recusa(String motivo, String detalhe, Throwable causa) {
    // Refusals are expected traffic (a scanner can send thousands of bad signatures): no stack.
    super(detalhe, causa, false, false);
    this.motivo = motivo;
  }

  abstract HttpStatus status();

  abstract String titulo();

  /** Tag {@code resultado} of the request metric. */
  abstract String resultado();

  final String motivo() {
    return motivo;
  }

  void cabecalhos(HttpHeaders cabecalhos) {}

  /** 401: no signature in an accepted scheme, or one that does not match. Says nothing more. */
  static final class AssinaturaInvalida extends Recusa {
    AssinaturaInvalida() {
      super(
          "assinatura_invalida",
          "The signature ("
              + AssinaturaDeWebhook.CABECALHO_DA_LOJA
              + ", or "
              + AssinaturaDeWebhook.CABECALHO_ASSINATURA
              + " where enabled) is missing or does not match the body.",
          null);
    }

    @Override
    HttpStatus status() {
      return HttpStatus.UNAUTHORIZED;
    }

    @Override
    String titulo() {
      return "Invalid signature";
    }

    @Override
    String resultado() {
      return "assinatura_invalida";
    }

    @Override
    void cabecalhos(HttpHeaders cabecalhos) {
      cabecalhos.set(
          HttpHeaders.WWW_AUTHENTICATE,
          "HMAC-SHA256 header=\"" + AssinaturaDeWebhook.CABECALHO_DA_LOJA + "\"");
    }
  }

  /**
   * 401: a Standard Webhooks timestamp outside the tolerance: a replayed capture, or a clock far
   * off. Refused before the body is read.
   */
  static final class AssinaturaExpirada extends Recusa {
    AssinaturaExpirada(Duration tolerancia) {
      super(
          "assinatura_expirada",
          "The "
              + AssinaturaDeWebhook.CABECALHO_INSTANTE
              + " is not within "
              + tolerancia.toSeconds()
              + " seconds of this server's clock.",
          null);
    }

    @Override
    HttpStatus status() {
      return HttpStatus.UNAUTHORIZED;
    }

    @Override
    String titulo() {
      return "Expired signature";
    }

    @Override
    String resultado() {
      return "assinatura_invalida";
    }
  }

  /** 429: this source address sent more than its share; refused before the body is read. */
  static final class TaxaExcedida extends Recusa {
    private final long segundos;

    TaxaExcedida(long segundos) {
      super(
          "taxa_excedida",
          "Too many requests from this address; retry after " + segundos + " s.",
          null);
      this.segundos = segundos;
    }

    @Override
    HttpStatus status() {
      return HttpStatus.TOO_MANY_REQUESTS;
    }

    @Override
    String titulo() {
      return "Too many requests";
    }

    @Override
    String resultado() {
      return "taxa_excedida";
    }

    @Override
    void cabecalhos(HttpHeaders cabecalhos) {
      cabecalhos.set(HttpHeaders.RETRY_AFTER, String.valueOf(segundos));
    }
  }

  /** 413: the body is over the limit; what was not read yet is never read. */
  static final class CorpoGrandeDemais extends Recusa {
    CorpoGrandeDemais(long limite) {
      super(
          "corpo_grande_demais",
          "The body is larger than the limit of " + limite + " bytes.",
          null);
    }

    @Override
    HttpStatus status() {
      return HttpStatus.CONTENT_TOO_LARGE;
    }

    @Override
    String titulo() {
      return "Body too large";
    }

    @Override
    String resultado() {
      return "corpo_grande_demais";
    }
  }

  /** 400: the body could not be read to its end (bad chunked framing, client gone, timeout). */
  static final class CorpoIlegivel extends Recusa {
    CorpoIlegivel(Throwable causa) {
      super("corpo_ilegivel", "The request body could not be read to its end.", causa);
    }

    @Override
    HttpStatus status() {
      return HttpStatus.BAD_REQUEST;
    }

    @Override
    String titulo() {
      return "Unreadable body";
    }

    @Override
    String resultado() {
      return "corpo_ilegivel";
    }
  }

  /**
   * 400: signed, but not an event that can be stored. The body goes to the quarantine table.
   *
   * <p>{@link #eventoId()} is the event id when the body got far enough to have one.
   */
  static final class CorpoInvalido extends Recusa {
    private final String eventoId;

    CorpoInvalido(String motivo, String detalhe) {
      this(motivo, detalhe, null);
    }

    CorpoInvalido(String motivo, String detalhe, String eventoId) {
      super(motivo, detalhe, null);
      this.eventoId = eventoId;
    }

    String eventoId() {
      return eventoId;
    }

    @Override
    HttpStatus status() {
      return HttpStatus.BAD_REQUEST;
    }

    @Override
    String titulo() {
      return "Invalid event";
    }

    @Override
    String resultado() {
      return "corpo_invalido";
    }
  }

  /**
   * 503 with {@code Retry-After} (added by {@link TratadorDeErros}): the receptor holds as many
   * bodies as it may ({@code fila_cheia}: the group-commit queue, in events or bytes; {@code
   * sobrecarregado}: the bodies of all requests in flight). Refused before anything is stored; the
   * provider redelivers later.
   */
  static final class Sobrecarga extends Recusa {
    static final String FILA_CHEIA = "fila_cheia";
    static final String SOBRECARREGADO = "sobrecarregado";

    Sobrecarga(String motivo, String detalhe) {
      super(motivo, detalhe, null);
    }

    @Override
    HttpStatus status() {
      return HttpStatus.SERVICE_UNAVAILABLE;
    }

    @Override
    String titulo() {
      return "Receptor busy";
    }

    @Override
    String resultado() {
      return motivo();
    }
  }

  /**
   * 503 with {@code Retry-After} (added by {@link TratadorDeErros}): the database is down, slow or
   * refusing; the provider should redeliver later.
   */
  static final class BancoIndisponivel extends Recusa {
    BancoIndisponivel(String detalhe, Throwable causa) {
      super("banco_indisponivel", detalhe, causa);
    }

    @Override
    HttpStatus status() {
      return HttpStatus.SERVICE_UNAVAILABLE;
    }

    @Override
    String titulo() {
      return "Storage unavailable";
    }

    @Override
    String resultado() {
      return "indisponivel";
    }
  }
}
