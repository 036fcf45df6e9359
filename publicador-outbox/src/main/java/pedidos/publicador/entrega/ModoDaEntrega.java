package pedidos.publicador.entrega;

/** How the relay delivers effects to {@code separacao.efeitos} now. */
public enum ModoDaEntrega {
  /** From the stream, as they are born (the normal state). */
  AO_VIVO,
  /**
   * An operator paused delivery: effects stay in the outbox, unsent; the stream goes on for inbox
   * rows and its position moves past the outbox rows, which the table still holds.
   */
  PAUSADA,
  /**
   * Resumed, and the backlog is being sent from the outbox at the configured pace; new effects join
   * the backlog until it is empty, so no effect of an order overtakes an older one.
   */
  ESVAZIANDO;

  public String tag() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
