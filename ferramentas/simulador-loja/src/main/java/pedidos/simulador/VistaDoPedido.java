package pedidos.simulador;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Comparator;
import pedidos.dominio.Fato;
import pedidos.dominio.Interpretacao;
import pedidos.dominio.Status;

/**
 * An order as the orders API shows it: its latest emitted event, with the order's total and email
 * (the API, unlike the webhooks, always knows them).
 *
 * @param sequence only for sequence-versioned orders
 * @param instante the {@code updated_at}: when the latest event happened
 */
record VistaDoPedido(
    String pedidoId,
    Status status,
    Long sequence,
    Instant instante,
    Long totalCentavos,
    String clienteEmail) {

  /** The API's order: by {@code updated_at}, then by id, so that pages never overlap or skip. */
  static final Comparator<VistaDoPedido> ORDEM =
      Comparator.comparing(VistaDoPedido::instante).thenComparing(VistaDoPedido::pedidoId);

  static VistaDoPedido de(PedidoGerado pedido, EventoDaLoja evento) {
    return new VistaDoPedido(
        pedido.id(),
        evento.status(),
        evento.sequence(),
        evento.ocorridoEm(),
        pedido.totalCentavos(),
        pedido.clienteEmail());
  }

  String statusDaApi() {
    return status.statusDaApi();
  }

  String atualizadoEm() {
    return FormatoDaLoja.instante(instante);
  }

  /**
   * The inbox key under which the applier stores this view (the reconciliation contract): the same
   * order at the same version and status is the same fact however often it is read.
   */
  String eventoId() {
    return Interpretacao.eventoIdDaApi(
        pedidoId,
        statusDaApi(),
        sequence == null ? null : BigDecimal.valueOf(sequence),
        atualizadoEm());
  }

  /** The fact the applier derives from this view, with the seed's {@code fatoDaApi}. */
  Fato fato() {
    Interpretacao interpretacao =
        Interpretacao.daApi(
            eventoId(),
            statusDaApi(),
            sequence == null ? null : BigDecimal.valueOf(sequence),
            atualizadoEm(),
            totalCentavos,
            clienteEmail);
    if (interpretacao instanceof Fato fato) {
      return fato;
    }
    throw new IllegalStateException("served a view without a fact: " + interpretacao);
  }
}
