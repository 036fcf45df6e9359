package pedidos.receptor;

/** What storing a valid event came to. All three are answered 200. */
enum Desfecho {
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

  String rotulo() {
    return rotulo;
  }
}
