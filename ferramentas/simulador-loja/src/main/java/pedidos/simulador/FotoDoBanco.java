package pedidos.simulador;

import java.util.List;
import java.util.Map;
import pedidos.contrato.RegistroDeEfeito;
import pedidos.dominio.EstadoDoPedido;

/**
 * The system's tables for this run's orders, read in one snapshot.
 *
 * @param pedidos the {@code pedidos} rows by id
 */
record FotoDoBanco(
    Map<String, EstadoDoPedido> pedidos, List<LinhaDoOutbox> outbox, List<LinhaDoInbox> inbox) {

  FotoDoBanco {
    pedidos = Map.copyOf(pedidos);
    outbox = List.copyOf(outbox);
    inbox = List.copyOf(inbox);
  }

  /** An {@code outbox} row. */
  record LinhaDoOutbox(String pedidoId, String efeito, boolean enviado) {
    String chave() {
      return RegistroDeEfeito.idempotencia(pedidoId, efeito);
    }
  }

  /**
   * A {@code webhook_eventos} row.
   *
   * @param resultado {@code null} while not applied
   */
  record LinhaDoInbox(
      String eventoId, String pedidoId, String tipo, boolean aplicado, String resultado) {}
}
