package pedidos.simulador;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the store knows: its orders and their events. At any instant an order is its latest event
 * that has happened by then; an order whose first event has not happened yet does not exist.
 */
final class Verdade {

  static final Verdade VAZIA = new Verdade(List.of());

  private final List<PedidoGerado> pedidos;

  Verdade(List<PedidoGerado> pedidos) {
    this.pedidos = List.copyOf(pedidos);
  }

  List<PedidoGerado> pedidos() {
    return pedidos;
  }

  /** Every existing order as the API shows it at {@code agora}, in the API's order. */
  List<VistaDoPedido> vistas(Instant agora) {
    List<VistaDoPedido> vistas = new ArrayList<>(pedidos.size());
    for (PedidoGerado pedido : pedidos) {
      EventoDaLoja atual = null;
      // Events are in lifecycle order with non-decreasing instants: the last one that happened is
      // the current state, also when two share a millisecond.
      for (EventoDaLoja evento : pedido.eventos()) {
        if (evento.ocorridoEm().isAfter(agora)) {
          break;
        }
        atual = evento;
      }
      if (atual != null) {
        vistas.add(VistaDoPedido.de(pedido, atual));
      }
    }
    vistas.sort(VistaDoPedido.ORDEM);
    return vistas;
  }
}
