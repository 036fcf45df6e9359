package pedidos.simulador;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** What happened to every delivery: the acknowledged events are the ones the system stored. */
final class RegistroDeEntregas {

  private final Set<String> enviados = ConcurrentHashMap.newKeySet();
  private final Set<String> confirmados = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> recusados = new ConcurrentHashMap<>();
  private final Set<String> desistidos = ConcurrentHashMap.newKeySet();
  private final AtomicLong envios = new AtomicLong();
  private final AtomicLong duplicatas = new AtomicLong();
  private final AtomicLong reenvios = new AtomicLong();
  private final AtomicLong falhas = new AtomicLong();
  private volatile int planejados;
  private volatile int perdidos;

  void planejado(PlanoDeEntrega plano) {
    planejados = plano.eventos();
    perdidos = plano.perdidos().size();
  }

  /**
   * @param copia 0 for the original delivery
   * @param tentativa 1 for the first attempt of this copy
   */
  void enviando(String eventoId, int copia, int tentativa) {
    envios.incrementAndGet();
    enviados.add(eventoId);
    if (tentativa == 1 && copia > 0) {
      duplicatas.incrementAndGet();
    }
    if (tentativa > 1) {
      reenvios.incrementAndGet();
    }
  }

  void confirmado(String eventoId) {
    confirmados.add(eventoId);
  }

  /** A 4xx other than 408 and 429: the receptor says the event itself is wrong; not retried. */
  void recusado(String eventoId, int status) {
    recusados.put(eventoId, status);
  }

  /** A 5xx, 408, 429 or no answer in time: the copy will be sent again. */
  void falhou() {
    falhas.incrementAndGet();
  }

  /** The delivery deadline passed with the copy still failing. */
  void desistiu(String eventoId) {
    desistidos.add(eventoId);
  }

  Set<String> confirmados() {
    return Set.copyOf(confirmados);
  }

  /** Sent but never acknowledged: whether the system stored them only its inbox can say. */
  Set<String> incertos() {
    Set<String> incertos = new HashSet<>(enviados);
    incertos.removeAll(confirmados);
    return incertos;
  }

  Map<String, Integer> recusados() {
    return Map.copyOf(recusados);
  }

  ResumoDaEntrega resumo(long duracaoEmMs) {
    Set<String> semConfirmacao = new HashSet<>(desistidos);
    semConfirmacao.removeAll(confirmados);
    return new ResumoDaEntrega(
        planejados,
        perdidos,
        enviados.size(),
        duplicatas.get(),
        envios.get(),
        reenvios.get(),
        falhas.get(),
        confirmados.size(),
        recusados.size(),
        semConfirmacao.size(),
        duracaoEmMs);
  }

  Progresso progresso(String fase) {
    return new Progresso(
        fase,
        planejados,
        perdidos,
        enviados.size(),
        confirmados.size(),
        envios.get(),
        reenvios.get(),
        -1);
  }
}
