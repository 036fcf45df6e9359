package pedidos.aplicador;

/** Whether an event already applied is skipped, or folded again. */
enum ModoDeAplicacao {
  /** The listener, the sweep, reconciliation: an event already applied is left as it is. */
  NORMAL,
  /**
   * Replay: the event is applied again and the order's state re-derived from all of its facts,
   * which repairs a state restored from an old backup and changes nothing in a correct one.
   */
  FORCADO
}
