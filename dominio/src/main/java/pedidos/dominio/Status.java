package pedidos.dominio;

import java.util.Optional;

/** The status of an order, with the seed's rank and terminal rules. */
public enum Status {
  CRIADO("criado", 1),
  PAGO("pago", 2),
  ENVIADO("enviado", 3),
  CANCELADO("cancelado", 4),
  REEMBOLSADO("reembolsado", 5);

  private final String codigo;
  private final int rank;

  Status(String codigo, int rank) {
    this.codigo = codigo;
    this.rank = rank;
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

  /** The status a webhook event type announces; empty for types we do not apply. */
  public static Optional<Status> doTipoDeEvento(String tipo) {
    if (tipo == null) {
      return Optional.empty();
    }
    return switch (tipo) {
      case "order.created" -> Optional.of(CRIADO);
      case "order.paid" -> Optional.of(PAGO);
      case "order.shipped" -> Optional.of(ENVIADO);
      case "order.canceled" -> Optional.of(CANCELADO);
      case "order.refunded" -> Optional.of(REEMBOLSADO);
      default -> Optional.empty();
    };
  }

  /** The status an order read from the provider's orders API has; empty for unknown ones. */
  public static Optional<Status> daApi(String statusDaApi) {
    if (statusDaApi == null) {
      return Optional.empty();
    }
    return switch (statusDaApi) {
      case "open" -> Optional.of(CRIADO);
      case "paid" -> Optional.of(PAGO);
      case "shipped" -> Optional.of(ENVIADO);
      case "canceled" -> Optional.of(CANCELADO);
      case "refunded" -> Optional.of(REEMBOLSADO);
      default -> Optional.empty();
    };
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
