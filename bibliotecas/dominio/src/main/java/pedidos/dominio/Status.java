package pedidos.dominio;

import java.util.Optional;

/**
 * The status of an order, with the seed's rank and terminal rules, and the store's names for it:
 * the one table of them, read by the system ({@link #doTipoDeEvento}, {@link #daApi}) and written
 * by whoever plays the store (the simulator, the benchmarks).
 */
public enum Status {
  CRIADO("criado", 1, "order.created", "open"),
  PAGO("pago", 2, "order.paid", "paid"),
  ENVIADO("enviado", 3, "order.shipped", "shipped"),
  CANCELADO("cancelado", 4, "order.canceled", "canceled"),
  REEMBOLSADO("reembolsado", 5, "order.refunded", "refunded");

  private final String codigo;
  private final int rank;
  private final String tipoDoEvento;
  private final String statusDaApi;

  Status(String codigo, int rank, String tipoDoEvento, String statusDaApi) {
    this.codigo = codigo;
    this.rank = rank;
    this.tipoDoEvento = tipoDoEvento;
    this.statusDaApi = statusDaApi;
  }

  /** The value stored in {@code pedidos.status}. */
  public String codigo() {
    return codigo;
  }

  /**
   * Breaks ties between facts of the same instant: the more advanced status wins. Part of the
   * time-based version, so it can never change once facts are stored.
   */
  public int rank() {
    return rank;
  }

  /** A terminal status is left only towards the listed statuses; anything else is an anomaly. */
  public boolean terminal() {
    return this == CANCELADO || this == REEMBOLSADO;
  }

  /** Whether a newer fact may move an order from this status to {@code destino}. */
  public boolean permiteSair(Status destino) {
    return switch (this) {
      case CANCELADO -> destino == REEMBOLSADO;
      case REEMBOLSADO -> false;
      case CRIADO, PAGO, ENVIADO -> true;
    };
  }

  /** The webhook's {@code type} announcing this status ({@code order.paid}). */
  public String tipoDoEvento() {
    return tipoDoEvento;
  }

  /** The orders API's {@code status} and the webhook's {@code data.status} ({@code paid}). */
  public String statusDaApi() {
    return statusDaApi;
  }

  /** The status a webhook event type announces; empty for types we do not apply. */
  public static Optional<Status> doTipoDeEvento(String tipo) {
    for (Status status : values()) {
      if (status.tipoDoEvento.equals(tipo)) {
        return Optional.of(status);
      }
    }
    return Optional.empty();
  }

  /** The status an order read from the provider's orders API has; empty for unknown ones. */
  public static Optional<Status> daApi(String statusDaApi) {
    for (Status status : values()) {
      if (status.statusDaApi.equals(statusDaApi)) {
        return Optional.of(status);
      }
    }
    return Optional.empty();
  }

  /** The status stored as {@code codigo} in {@code pedidos.status}. */
  public static Status doCodigo(String codigo) {
    for (Status status : values()) {
      if (status.codigo.equals(codigo)) {
        return status;
      }
    }
    throw new IllegalArgumentException("unknown status code: " + codigo);
  }
}
