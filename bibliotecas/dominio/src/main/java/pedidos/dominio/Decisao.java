package pedidos.dominio;

/** The seed's {@code decidir}: whether a fact moves the order, given the state in force. */
public sealed interface Decisao {

  /**
   * The fact moves the order.
   *
   * @param de the status it leaves, or {@code null} for an order seen for the first time
   */
  record Aplicar(Status de) implements Decisao {}

  /**
   * The fact moves nothing.
   *
   * @param motivo {@link Resultado#EVENTO_ANTIGO} or {@link Resultado#REGRESSAO_DE_TERMINAL}
   */
  record Ignorar(Resultado motivo) implements Decisao {}

  /**
   * @param atual the state in force, or {@code null} when the order has no state yet
   */
  static Decisao decidir(EstadoDoPedido atual, Status status, long versao) {
    if (atual == null) {
      return new Aplicar(null);
    }
    if (versao <= atual.versaoOrigem()) {
      return new Ignorar(Resultado.EVENTO_ANTIGO);
    }
    if (!atual.status().permiteSair(status)) {
      return new Ignorar(Resultado.REGRESSAO_DE_TERMINAL);
    }
    return new Aplicar(atual.status());
  }
}
