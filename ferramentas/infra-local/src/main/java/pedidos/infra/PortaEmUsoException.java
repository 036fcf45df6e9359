package pedidos.infra;

/**
 * A fixed port asked for PostgreSQL or Kafka is taken by another process.
 *
 * <p>Raised before anything is started, so the user sees which variable to change instead of a
 * timeout or a bind error buried in the server's own output.
 */
public final class PortaEmUsoException extends IllegalStateException {

  private final int porta;

  PortaEmUsoException(int porta, String variavel) {
    super("port " + porta + " is already in use; set " + variavel);
    this.porta = porta;
  }

  public int porta() {
    return porta;
  }
}
