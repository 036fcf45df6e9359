package pedidos.simulador;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every order view the API served. The applier stores each view it reads as a fact, so these are
 * part of what the system knows and of the expected state.
 */
final class VistasServidas {

  private final Map<String, VistaDoPedido> porEventoId = new ConcurrentHashMap<>();
  private final AtomicLong paginas = new AtomicLong();

  void registrar(Collection<VistaDoPedido> vistas) {
    paginas.incrementAndGet();
    for (VistaDoPedido vista : vistas) {
      porEventoId.putIfAbsent(vista.eventoId(), vista);
    }
  }

  List<VistaDoPedido> todas() {
    return new ArrayList<>(porEventoId.values());
  }

  boolean contem(String eventoId) {
    return porEventoId.containsKey(eventoId);
  }

  long paginas() {
    return paginas.get();
  }
}
