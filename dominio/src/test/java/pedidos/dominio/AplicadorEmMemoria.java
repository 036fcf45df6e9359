package pedidos.dominio;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The applier's transaction without a database, as the aplicador runs it: an event already applied
 * is skipped unless forced, a fact is folded with the order's applied facts, the stored state and
 * the results of all facts are replaced, and effects go to a keyed outbox.
 */
final class AplicadorEmMemoria {

  /** One apply, with the stored state it started from. */
  record Observacao(EstadoDoPedido antes, Aplicacao aplicacao, Set<Efeito> outboxAntes) {}

  private final Map<String, Fato> aplicados = new LinkedHashMap<>();
  private final Map<String, Resultado> resultados = new HashMap<>();
  private final Set<Efeito> outbox = new LinkedHashSet<>();
  private final List<Observacao> observacoes = new ArrayList<>();
  private EstadoDoPedido estado;

  void entregar(Fato... fatos) {
    for (Fato fato : fatos) {
      entregar(fato);
    }
  }

  void entregar(Interpretacao evento, String eventoId) {
    if (evento instanceof Fato fato) {
      entregar(fato);
    } else if (!resultados.containsKey(eventoId)) {
      resultados.put(eventoId, ((Interpretacao.SemFato) evento).resultado());
    }
  }

  void entregar(Fato fato) {
    if (!aplicados.containsKey(fato.eventoId())) {
      aplicar(fato);
    }
  }

  /** Replay's forced mode: the fact is folded again even though it was applied. */
  void forcar(Fato fato) {
    aplicar(fato);
  }

  private void aplicar(Fato fato) {
    Aplicacao aplicacao = Aplicacao.aplicar(estado, aplicados.values(), fato);
    observacoes.add(new Observacao(estado, aplicacao, Set.copyOf(outbox)));
    estado = aplicacao.estado();
    outbox.addAll(aplicacao.efeitos());
    resultados.putAll(aplicacao.veredictos());
    aplicados.putIfAbsent(fato.eventoId(), fato);
  }

  EstadoDoPedido estado() {
    return estado;
  }

  List<Efeito> outbox() {
    return List.copyOf(outbox);
  }

  Map<String, Resultado> resultados() {
    return resultados;
  }

  List<Observacao> observacoes() {
    return observacoes;
  }

  Aplicacao ultima() {
    return observacoes.get(observacoes.size() - 1).aplicacao();
  }
}
