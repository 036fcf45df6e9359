package pedidos.dominio;

/**
 * What became of a fact, stored in {@code webhook_eventos.resultado} so ops can query anomalies.
 */
public enum Resultado {
  /** The fact moved the order in the canonical history. */
  APLICADO("aplicado"),
  /** Not newer than the fact already in force: it changes no status, it may still fill fields. */
  EVENTO_ANTIGO("evento_antigo"),
  /** A newer fact that would leave a terminal status the rules do not allow: an anomaly. */
  REGRESSAO_DE_TERMINAL("regressao_de_terminal"),
  /** An event type that says nothing about an order's status. */
  TIPO_IGNORADO("tipo_ignorado"),
  /** A fact that can never be applied (its instant cannot be read, its status is unknown). */
  FATO_INVALIDO("fato_invalido"),
  /**
   * The apply kept failing for a reason nobody named (not the fact's content, not a transient
   * failure of the database): settled so that it is retried no more and ops see it, with the
   * failure in {@code motivo}. Not a fact of the order: the fold never counts it, and a forced
   * replay tries it again.
   */
  FALHA_DE_APLICACAO("falha_de_aplicacao");

  private final String codigo;

  Resultado(String codigo) {
    this.codigo = codigo;
  }

  public String codigo() {
    return codigo;
  }
}
