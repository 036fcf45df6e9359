package pedidos.simulador;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every order view the API served, with the earliest {@code updated_since} it was served under. The
 * applier stores each view it reads as a fact, so these are part of what the system knows and of
 * the expected state, save one kind: a view served to a round that died before storing it, and
 * replaced by a later view of the same order that a round from a cursor at or before it stored (see
 * {@link Verificador}).
 */
final class VistasServidas {

  private final Map<String, Servida> porEventoId = new ConcurrentHashMap<>();
  private final AtomicLong paginas = new AtomicLong();

  private record Servida(VistaDoPedido vista, Instant desde) {}

  /**
   * @param desde the page's {@code updated_since}: the cursor of the round that asked for it
   */
  void registrar(Instant desde, Collection<VistaDoPedido> vistas) {
    paginas.incrementAndGet();
    for (VistaDoPedido vista : vistas) {
      porEventoId.merge(
          vista.eventoId(),
          new Servida(vista, desde),
          (antes, agora) -> agora.desde().isBefore(antes.desde()) ? agora : antes);
    }
  }

  List<VistaDoPedido> todas() {
    List<VistaDoPedido> todas = new ArrayList<>();
    porEventoId.values().forEach(servida -> todas.add(servida.vista()));
    return todas;
  }

  /**
   * Whether a round whose cursor had not passed {@code instante} was served this view: it read from
   * at or before that point.
   */
  boolean servidaDesde(String eventoId, Instant instante) {
    Servida servida = porEventoId.get(eventoId);
    return servida != null && !servida.desde().isAfter(instante);
  }

  long paginas() {
    return paginas.get();
  }
}
