package pedidos.receptor.desfecho;

import java.util.Map;
import org.springframework.http.HttpHeaders;
import pedidos.contrato.AssinaturaDeWebhook;

/**
 * Why a delivery was not answered 200: its kind ({@link TipoDeRecusa}: status, title, {@code
 * motivo}, metric tag) and what this one adds, the detail and, for some kinds, a reason, an event
 * id or a header. The message is the problem's {@code detail}: it is shown to the caller, so it
 * never holds a secret or a stack trace. A 503's {@code Retry-After} is the error handler's, from
 * the configuration.
 */
public final class Recusa extends RuntimeException {

  private final TipoDeRecusa tipo;
  private final String motivo;
  private final String eventoId;
  private final Map<String, String> cabecalhos;

  public Recusa(TipoDeRecusa tipo, String detalhe) {
    this(tipo, detalhe, null);
  }

  public Recusa(TipoDeRecusa tipo, String detalhe, Throwable causa) {
    this(tipo, tipo.motivo(), detalhe, null, causa, Map.of());
  }

  private Recusa(
      TipoDeRecusa tipo,
      String motivo,
      String detalhe,
      String eventoId,
      Throwable causa,
      Map<String, String> cabecalhos) {
    // Refusals are expected traffic (a scanner can send thousands of bad signatures): no stack.
    super(detalhe, causa, false, false);
    this.tipo = tipo;
    this.motivo = motivo;
    this.eventoId = eventoId;
    this.cabecalhos = cabecalhos;
  }

  /** 401 with the scheme the store signs with named in {@code WWW-Authenticate}. */
  public static Recusa assinaturaInvalida() {
    return new Recusa(
        TipoDeRecusa.ASSINATURA_INVALIDA,
        TipoDeRecusa.ASSINATURA_INVALIDA.motivo(),
        "The signature ("
            + AssinaturaDeWebhook.CABECALHO_DA_LOJA
            + ", or "
            + AssinaturaDeWebhook.CABECALHO_ASSINATURA
            + " where enabled) is missing or does not match the body.",
        null,
        null,
        Map.of(
            HttpHeaders.WWW_AUTHENTICATE,
            "HMAC-SHA256 header=\"" + AssinaturaDeWebhook.CABECALHO_DA_LOJA + "\""));
  }

  /** 429 with the seconds until this address has a request again as {@code Retry-After}. */
  public static Recusa taxaExcedida(long segundos) {
    return new Recusa(
        TipoDeRecusa.TAXA_EXCEDIDA,
        TipoDeRecusa.TAXA_EXCEDIDA.motivo(),
        "Too many requests from this address; retry after " + segundos + " s.",
        null,
        null,
        Map.of(HttpHeaders.RETRY_AFTER, String.valueOf(segundos)));
  }

  /**
   * 400, quarantined: a signed body that is not a storable event, for this reason.
   *
   * @param eventoId the event id when the body got far enough to have one, else null
   */
  public static Recusa corpoInvalido(String motivo, String detalhe, String eventoId) {
    return new Recusa(TipoDeRecusa.CORPO_INVALIDO, motivo, detalhe, eventoId, null, Map.of());
  }

  public static Recusa corpoInvalido(String motivo, String detalhe) {
    return corpoInvalido(motivo, detalhe, null);
  }

  public TipoDeRecusa tipo() {
    return tipo;
  }

  /** The stable code of the problem's {@code motivo}: the kind's, or this refusal's own reason. */
  public String motivo() {
    return motivo;
  }

  /** The event id of a {@link TipoDeRecusa#CORPO_INVALIDO} body, when it had one; else null. */
  public String eventoId() {
    return eventoId;
  }

  /** Headers the answer carries for this refusal, beyond the content type. */
  public Map<String, String> cabecalhos() {
    return cabecalhos;
  }
}
