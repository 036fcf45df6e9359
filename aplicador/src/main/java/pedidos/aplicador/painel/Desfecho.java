package pedidos.aplicador.painel;

/**
 * How an operator's action ended, as the audit stores it and the page shows it.
 *
 * @param resultado {@code feito} (it changed something), {@code nada_a_fazer} (already done:
 *     repeating an action is harmless), {@code recusado} (it cannot be done, and why) or {@code
 *     falhou} (an error; nothing was changed)
 * @param pedidoId the order concerned, when there is one
 */
public record Desfecho(String resultado, String detalhe, String pedidoId) {

  public static final String FEITO = "feito";
  public static final String NADA_A_FAZER = "nada_a_fazer";
  public static final String RECUSADO = "recusado";
  public static final String FALHOU = "falhou";

  static Desfecho feito(String detalhe, String pedidoId) {
    return new Desfecho(FEITO, detalhe, pedidoId);
  }

  static Desfecho nadaAFazer(String detalhe, String pedidoId) {
    return new Desfecho(NADA_A_FAZER, detalhe, pedidoId);
  }

  static Desfecho recusado(String detalhe, String pedidoId) {
    return new Desfecho(RECUSADO, detalhe, pedidoId);
  }
}
