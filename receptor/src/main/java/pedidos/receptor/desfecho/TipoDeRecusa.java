package pedidos.receptor.desfecho;

import org.springframework.http.HttpStatus;

/**
 * Every way a delivery is refused, one row each: its HTTP status, the problem's title, the stable
 * {@code motivo} clients and dashboards read, and the tag {@code resultado} of the request metric.
 * A new kind is a new row, and the constructor asks for all four.
 */
public enum TipoDeRecusa {
  /** No signature in an accepted scheme, or one that does not match. Says nothing more. */
  ASSINATURA_INVALIDA(
      HttpStatus.UNAUTHORIZED, "Invalid signature", "assinatura_invalida", "assinatura_invalida"),
  /**
   * A Standard Webhooks timestamp outside the tolerance: a replayed capture, or a clock far off.
   * Refused before the body is read; counted with the invalid signatures.
   */
  ASSINATURA_EXPIRADA(
      HttpStatus.UNAUTHORIZED, "Expired signature", "assinatura_expirada", "assinatura_invalida"),
  /** This source address sent more than its share; refused before the body is read. */
  TAXA_EXCEDIDA(
      HttpStatus.TOO_MANY_REQUESTS, "Too many requests", "taxa_excedida", "taxa_excedida"),
  /** The body is over the limit; what was not read yet is never read. */
  CORPO_GRANDE_DEMAIS(
      HttpStatus.CONTENT_TOO_LARGE, "Body too large", "corpo_grande_demais", "corpo_grande_demais"),
  /** The body could not be read to its end (bad chunked framing, client gone, timeout). */
  CORPO_ILEGIVEL(HttpStatus.BAD_REQUEST, "Unreadable body", "corpo_ilegivel", "corpo_ilegivel"),
  /**
   * Signed, but not an event that can be stored; the body goes to the quarantine table. Its {@code
   * motivo} is each refusal's own (the reader's or the envelope's reason), this row's only when
   * none is given.
   */
  CORPO_INVALIDO(HttpStatus.BAD_REQUEST, "Invalid event", "corpo_invalido", "corpo_invalido"),
  /**
   * The group-commit queue holds as many events, or bytes of them, as it may. Refused before
   * anything is stored; the provider redelivers later.
   */
  FILA_CHEIA(HttpStatus.SERVICE_UNAVAILABLE, "Receptor busy", "fila_cheia", "fila_cheia"),
  /**
   * The bodies of all requests in flight hold as many bytes as they may; refused before reading.
   */
  SOBRECARREGADO(
      HttpStatus.SERVICE_UNAVAILABLE, "Receptor busy", "sobrecarregado", "sobrecarregado"),
  /** The database is down, slow or refusing; the provider should redeliver later. */
  BANCO_INDISPONIVEL(
      HttpStatus.SERVICE_UNAVAILABLE, "Storage unavailable", "banco_indisponivel", "indisponivel");

  private final HttpStatus status;
  private final String titulo;
  private final String motivo;
  private final String resultado;

  TipoDeRecusa(HttpStatus status, String titulo, String motivo, String resultado) {
    this.status = status;
    this.titulo = titulo;
    this.motivo = motivo;
    this.resultado = resultado;
  }

  public HttpStatus status() {
    return status;
  }

  public String titulo() {
    return titulo;
  }

  public String motivo() {
    return motivo;
  }

  /** Tag {@code resultado} of the request metric. */
  public String resultado() {
    return resultado;
  }
}
