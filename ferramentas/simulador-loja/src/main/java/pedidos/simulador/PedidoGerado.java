package pedidos.simulador;

import java.util.List;

/**
 * An order of the store's truth with all its events, in lifecycle order.
 *
 * @param porSequencia whether its events carry a {@code sequence} (else they are versioned by
 *     instant)
 * @param totalCentavos the order's total, which the API always shows and events sometimes omit
 */
record PedidoGerado(
    String id,
    Ciclo ciclo,
    boolean porSequencia,
    long totalCentavos,
    String clienteEmail,
    List<EventoDaLoja> eventos) {

  PedidoGerado {
    eventos = List.copyOf(eventos);
  }

  /** The order's final truth: what the provider's API shows once everything happened. */
  EventoDaLoja ultimo() {
    return eventos.get(eventos.size() - 1);
  }

  /** Two consecutive events at the same version basis: the same sequence or millisecond. */
  boolean temEmpate() {
    for (int i = 1; i < eventos.size(); i++) {
      EventoDaLoja antes = eventos.get(i - 1);
      EventoDaLoja depois = eventos.get(i);
      boolean empate =
          porSequencia
              ? antes.sequence().equals(depois.sequence())
              : antes.ocorridoEm().equals(depois.ocorridoEm());
      if (empate) {
        return true;
      }
    }
    return false;
  }
}
