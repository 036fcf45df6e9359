package pedidos.dominio;

/**
 * How an apply treats an event already applied, and an order another apply is working on. The first
 * is the policy's ({@link PoliticaDeAplicacao}); the second tells the applier whether to wait for
 * the order's lock.
 */
public enum ModoDeAplicacao {
  /** The listener and reconciliation: an event already applied is left as it is. */
  NORMAL(false, true),
  /**
   * The sweep: like {@link #NORMAL}, but an order that another apply holds is skipped rather than
   * waited for, as the seed's {@code SKIP LOCKED} did; the next round finds it again if need be.
   */
  VARREDURA(false, false),
  /**
   * Replay: the event is applied again and the order's state re-derived from all of its facts,
   * which repairs a state restored from an old backup and changes nothing in a correct one.
   */
  FORCADO(true, true);

  private final boolean reaplica;
  private final boolean esperaPeloPedido;

  ModoDeAplicacao(boolean reaplica, boolean esperaPeloPedido) {
    this.reaplica = reaplica;
    this.esperaPeloPedido = esperaPeloPedido;
  }

  /** Whether an event already applied is applied again. */
  public boolean reaplica() {
    return reaplica;
  }

  /** Whether the apply waits for an order that another apply holds, or skips it. */
  public boolean esperaPeloPedido() {
    return esperaPeloPedido;
  }
}
