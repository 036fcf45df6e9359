package pedidos.aplicador.reconciliacao;

/**
 * What one reconciliation round did.
 *
 * @param armazenados orders read from the API with a status we know, each stored as a fact unless
 *     the inbox already had it: most rounds read again orders already known (the overlap)
 * @param statusDesconhecido orders skipped because their status means nothing to us
 * @param aplicados facts that changed something when applied
 * @param novos facts the inbox lacked, stored by this round: what the round really brought
 */
record RodadaDeReconciliacao(
    Situacao situacao,
    int paginas,
    int armazenados,
    int statusDesconhecido,
    int aplicados,
    int novos) {

  /**
   * Whether the round brought nothing: no new fact and no apply. (Orders of an unknown status are
   * logged one by one, at WARN, each time they are read.)
   */
  boolean semNovidade() {
    return novos == 0 && aplicados == 0;
  }

  enum Situacao {
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
    /**
     * The round's lock was lost (its session went silent: TravaDaRodada): the round stopped after
     * its last stored page, where the next round, here or on another instance, goes on.
     */
    TRAVA_PERDIDA,
    DESLIGADA
  }

  static RodadaDeReconciliacao sem(Situacao situacao) {
    return new RodadaDeReconciliacao(situacao, 0, 0, 0, 0, 0);
  }
}
