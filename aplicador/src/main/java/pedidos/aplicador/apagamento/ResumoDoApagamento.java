package pedidos.aplicador.apagamento;

/**
 * What the erasure of one customer changed, table by table.
 *
 * @param pedidosEncontrados orders that held the email somewhere (their row, a payload, an effect)
 * @param pedidos rows of {@code pedidos} whose email was anonymised
 * @param eventos inbox rows whose payload or reason was anonymised
 * @param efeitos outbox snapshots whose email was anonymised
 * @param quarentena quarantined bodies anonymised (or deleted, when the anonymised body was there
 *     already)
 * @param mortos the relay's dead letters whose reason was anonymised
 */
public record ResumoDoApagamento(
    long pedidosEncontrados,
    long pedidos,
    long eventos,
    long efeitos,
    long quarentena,
    long mortos) {

  /** Nothing held the email: never stored, or erased already. */
  public boolean nada() {
    return pedidos + eventos + efeitos + quarentena + mortos == 0;
  }
}
