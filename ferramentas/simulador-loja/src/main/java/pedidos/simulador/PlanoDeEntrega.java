package pedidos.simulador;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How the store will deliver its events, decided up front from a seed: which are never delivered,
 * how many copies each of the others gets, and when each copy first goes out. Deciding it apart
 * from the sending keeps a run reproducible however the threads interleave.
 *
 * @param envios the first attempt of every copy, by planned instant
 * @param perdidos the events the store never delivers
 * @param eventos all events of the truth
 */
record PlanoDeEntrega(List<Envio> envios, List<EventoDaLoja> perdidos, int eventos) {

  /**
   * @param copia 0 for the original delivery, 1.. for the duplicates
   */
  record Envio(EventoDaLoja evento, int copia, Instant quando) {}

  // A late event leaves this long after the latest first delivery of the event it must follow.
  private static final Duration FOLGA_DO_ATRASADO = Duration.ofMillis(100);

  PlanoDeEntrega {
    envios = List.copyOf(envios);
    perdidos = List.copyOf(perdidos);
  }

  /**
   * @param perda the fraction of events never delivered
   * @param duplicacao the fraction of delivered events sent more than once
   * @param atrasoMaximo each copy leaves up to this long after the event happened, which shuffles
   *     the arrivals
   */
  static PlanoDeEntrega planejar(
      List<PedidoGerado> pedidos,
      long semente,
      double perda,
      double duplicacao,
      Duration atrasoMaximo) {
    // Another stream than the generator's, so changing the plan's knobs keeps the same truth.
    SplittableRandom aleatorio = new SplittableRandom(semente ^ 0x9E3779B97F4A7C15L);
    long atrasoEmMs = atrasoMaximo.toMillis();
    List<Envio> envios = new ArrayList<>();
    List<EventoDaLoja> perdidos = new ArrayList<>();
    int eventos = 0;
    for (PedidoGerado pedido : pedidos) {
      List<EventoDaLoja> doPedido = pedido.eventos();
      for (int k = 0; k < doPedido.size(); k++) {
        EventoDaLoja evento = doPedido.get(k);
        eventos++;
        if (aleatorio.nextDouble() < perda) {
          perdidos.add(evento);
          continue;
        }
        int copias = 1;
        if (aleatorio.nextDouble() < duplicacao) {
          copias += aleatorio.nextDouble() < 0.25 ? 2 : 1;
        }
        Instant base = evento.ocorridoEm();
        if (evento.atrasado() && k + 1 < doPedido.size()) {
          base = doPedido.get(k + 1).ocorridoEm().plus(atrasoMaximo).plus(FOLGA_DO_ATRASADO);
        }
        for (int copia = 0; copia < copias; copia++) {
          long atraso = (long) (aleatorio.nextDouble() * atrasoEmMs);
          envios.add(new Envio(evento, copia, base.plusMillis(atraso)));
        }
      }
    }
    envios.sort(Comparator.comparing(Envio::quando));
    return new PlanoDeEntrega(envios, perdidos, eventos);
  }

  /** Copies beyond the first. */
  long duplicatas() {
    return envios.stream().filter(envio -> envio.copia() > 0).count();
  }
}
