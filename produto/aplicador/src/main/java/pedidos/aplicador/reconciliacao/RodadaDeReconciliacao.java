package pedidos.aplicador.reconciliacao;

/**
 * What one reconciliation round did.
 *
 * @param armazenados orders stored as facts (new or already known)
 * @param statusDesconhecido orders skipped because their status means nothing to us
 * @param aplicados facts that changed something when applied
 */
public record RodadaDeReconciliacao(
    Situacao situacao, int paginas, int armazenados, int statusDesconhecido, int aplicados) {

  public enum Situacao {
    CONCLUIDA,
    /**
     * The round read as many pages as it may ({@code paginas-por-rodada}); the cursor stands after
     * the last stored page, where the next round goes on.
     */
    LIMITADA,
    /** Another instance holds the reconciliation lock: this one skips the round. */
    OCUPADA,
    /** The API failed; the cursor stays where the last stored page left it. */
    FALHOU,
    DESLIGADA
  }

  static RodadaDeReconciliacao sem(Situacao situacao) {
    return new RodadaDeReconciliacao(situacao, 0, 0, 0, 0);
  }
}
