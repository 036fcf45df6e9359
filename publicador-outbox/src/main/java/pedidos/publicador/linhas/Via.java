package pedidos.publicador.linhas;

/** How a row reached Kafka; the {@code via} tag of the relay's metrics. */
public enum Via {
  /** From the replication stream, the normal path. */
  CDC,
  /** Re-sent from the outbox table by the fallback. */
  REENVIO,
  /** Re-published from the dead-letter table by the {@code republicar-mortos} command. */
  REPUBLICACAO;

  public String tag() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
