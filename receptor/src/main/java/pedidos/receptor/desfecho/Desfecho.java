package pedidos.receptor.desfecho;

/** What storing a valid event came to. All three are answered 200. */
public enum Desfecho {
  /** First delivery: the row was inserted and committed. */
  INSERIDO("inserido"),
  /** Redelivery of a stored event with an equal body (compared as {@code jsonb}). */
  DUPLICADO("duplicado"),
  /** Redelivery of a stored event id with a different body: the first body stays. */
  CONFLITO("conflito");

  private final String rotulo;

  Desfecho(String rotulo) {
    this.rotulo = rotulo;
  }

  /** The answer's {@code resultado} and the request metric's tag. */
  public String rotulo() {
    return rotulo;
  }
}
