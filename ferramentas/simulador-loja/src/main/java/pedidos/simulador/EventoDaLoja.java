package pedidos.simulador;

import java.math.BigDecimal;
import java.time.Instant;
import pedidos.dominio.Fato;
import pedidos.dominio.Interpretacao;
import pedidos.dominio.Status;

/**
 * One webhook event of the store's truth.
 *
 * @param posicao the event's place in its order's lifecycle
 * @param sequence the per-order sequence for sequence-versioned orders, else {@code null}
 * @param totalCentavos {@code null} when this event does not carry it
 * @param clienteEmail {@code null} when this event does not carry it
 * @param atrasado delivered only after the order's next event (the seed's late payment)
 */
record EventoDaLoja(
    String eventoId,
    String pedidoId,
    int posicao,
    Status status,
    Long sequence,
    Instant ocorridoEm,
    Long totalCentavos,
    String clienteEmail,
    boolean atrasado) {

  String tipo() {
    return status.tipoDoEvento();
  }

  String ocorridoEmTexto() {
    return FormatoDaLoja.instante(ocorridoEm);
  }

  /** The fact the system must derive from this event once it has stored it. */
  Fato fato() {
    Interpretacao interpretacao =
        Interpretacao.doEvento(
            eventoId,
            tipo(),
            sequence == null ? null : BigDecimal.valueOf(sequence),
            ocorridoEmTexto(),
            totalCentavos,
            clienteEmail);
    if (interpretacao instanceof Fato fato) {
      return fato;
    }
    // The generator only writes valid events; anything else is a bug here, not in the system.
    throw new IllegalStateException("generated an event without a fact: " + interpretacao);
  }
}
