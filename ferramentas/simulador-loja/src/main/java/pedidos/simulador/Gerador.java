package pedidos.simulador;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import pedidos.dominio.Status;

/**
 * The store's truth: orders with their lifecycles, deterministic from a seed.
 *
 * <p>The events of all orders are interleaved on one timeline starting at {@code inicio}, spaced at
 * the delivery rate, so that an event's {@code occurred_at} is when the store emits it: the orders
 * API then shows each order as it is at the moment of the request, as a real provider would, and a
 * reconciliation cursor that follows {@code updated_at} sees every change.
 */
final class Gerador {

  /** Order and event ids embed it; it keeps runs against the same database apart. */
  static final Pattern PREFIXO = Pattern.compile("[A-Za-z0-9]{1,40}");

  // The first fact often lacks the total and the email (the seed: "pode chegar depois").
  private static final double AUSENTE_NO_PRIMEIRO = 0.4;
  private static final double AUSENTE_DEPOIS = 0.15;
  // Two consecutive facts at the same sequence, or in the same millisecond.
  private static final double EMPATE = 0.2;

  private Gerador() {}

  /**
   * @param prefixo distinguishes this run's ids from other runs' ({@link #PREFIXO})
   * @param inicio the instant of the first event, truncated to the millisecond
   * @param eventosPorSegundo spacing of the timeline
   */
  static List<PedidoGerado> gerar(
      long semente, int quantidade, String prefixo, Instant inicio, double eventosPorSegundo) {
    if (quantidade < 1) {
      throw new IllegalArgumentException("at least one order: " + quantidade);
    }
    if (!PREFIXO.matcher(prefixo).matches()) {
      throw new IllegalArgumentException("prefix must match " + PREFIXO + ": " + prefixo);
    }
    if (!(eventosPorSegundo > 0)) {
      throw new IllegalArgumentException("rate must be positive: " + eventosPorSegundo);
    }
    // All 64 bits of the seed count (java.util.Random would ignore the upper 16).
    SplittableRandom aleatorio = new SplittableRandom(semente);
    List<Rascunho> rascunhos = new ArrayList<>(quantidade);
    for (int i = 0; i < quantidade; i++) {
      rascunhos.add(rascunho(i, prefixo, aleatorio));
    }
    distribuirNoTempo(
        rascunhos, inicio.truncatedTo(ChronoUnit.MILLIS), eventosPorSegundo, aleatorio);
    List<PedidoGerado> pedidos = new ArrayList<>(quantidade);
    for (Rascunho rascunho : rascunhos) {
      pedidos.add(rascunho.pedido());
    }
    return List.copyOf(pedidos);
  }

  /**
   * Every lifecycle is met first time-versioned, then sequence-versioned, so that even a small run
   * covers them all; after that, lifecycles and versioning are drawn.
   */
  private static Rascunho rascunho(int i, String prefixo, SplittableRandom aleatorio) {
    Ciclo[] ciclos = Ciclo.values();
    int tipos = ciclos.length;
    Ciclo ciclo = i < 2 * tipos ? ciclos[i % tipos] : ciclos[aleatorio.nextInt(tipos)];
    boolean porSequencia = i < 2 * tipos ? i >= tipos : aleatorio.nextBoolean();
    var rascunho =
        new Rascunho(
            "ord_" + prefixo + "_" + i,
            "evt_" + prefixo + "_" + i + "_",
            ciclo,
            porSequencia,
            100 + aleatorio.nextInt(99_901),
            "cliente" + i + "@" + prefixo.toLowerCase() + ".exemplo");
    int passos = ciclo.statuses().size();
    long sequencia = 1 + aleatorio.nextInt(5);
    for (int k = 0; k < passos; k++) {
      // The first order of each versioning kind always has a tie, so ties exist in any run that
      // covers the lifecycles; order 1 always starts without total and email.
      boolean empateForcado = k == 1 && (i == 0 || i == tipos);
      boolean empate = k > 0 && (empateForcado | aleatorio.nextDouble() < EMPATE);
      double ausencia = k == 0 ? AUSENTE_NO_PRIMEIRO : AUSENTE_DEPOIS;
      boolean semDadosForcado = i == 1 && k == 0;
      boolean comTotal = !semDadosForcado & aleatorio.nextDouble() >= ausencia;
      boolean comEmail = !semDadosForcado & aleatorio.nextDouble() >= ausencia;
      if (k > 0 && !empate) {
        sequencia += 1 + aleatorio.nextInt(3);
      }
      rascunho.passos.add(new Passo(empate, sequencia, comTotal, comEmail));
    }
    return rascunho;
  }

  /**
   * Interleaves the orders' events on the timeline, each order's in lifecycle order; a tie takes
   * the same slot as the event before it.
   */
  private static void distribuirNoTempo(
      List<Rascunho> rascunhos,
      Instant inicio,
      double eventosPorSegundo,
      SplittableRandom aleatorio) {
    List<Rascunho> ativos = new ArrayList<>(rascunhos);
    long slot = 0;
    while (!ativos.isEmpty()) {
      int escolhido = aleatorio.nextInt(ativos.size());
      Rascunho rascunho = ativos.get(escolhido);
      Instant quando = inicio.plusMillis((long) Math.floor(slot * 1000.0 / eventosPorSegundo));
      slot++;
      do {
        rascunho.instantes.add(quando);
      } while (rascunho.instantes.size() < rascunho.passos.size()
          && rascunho.passos.get(rascunho.instantes.size()).empate());
      if (rascunho.instantes.size() == rascunho.passos.size()) {
        // Swap-remove: order of the remaining ones stays deterministic.
        ativos.set(escolhido, ativos.get(ativos.size() - 1));
        ativos.remove(ativos.size() - 1);
      }
    }
  }

  private record Passo(boolean empate, long sequencia, boolean comTotal, boolean comEmail) {}

  private static final class Rascunho {
    final String pedidoId;
    final String prefixoDoEvento;
    final Ciclo ciclo;
    final boolean porSequencia;
    final long total;
    final String email;
    final List<Passo> passos = new ArrayList<>();
    final List<Instant> instantes = new ArrayList<>();

    Rascunho(
        String pedidoId,
        String prefixoDoEvento,
        Ciclo ciclo,
        boolean porSequencia,
        long total,
        String email) {
      this.pedidoId = pedidoId;
      this.prefixoDoEvento = prefixoDoEvento;
      this.ciclo = ciclo;
      this.porSequencia = porSequencia;
      this.total = total;
      this.email = email;
    }

    PedidoGerado pedido() {
      List<EventoDaLoja> eventos = new ArrayList<>(passos.size());
      for (int k = 0; k < passos.size(); k++) {
        Passo passo = passos.get(k);
        Status status = ciclo.statuses().get(k);
        eventos.add(
            new EventoDaLoja(
                prefixoDoEvento + k,
                pedidoId,
                k,
                status,
                porSequencia ? passo.sequencia() : null,
                instantes.get(k),
                passo.comTotal() ? total : null,
                passo.comEmail() ? email : null,
                k == ciclo.posicaoAtrasada()));
      }
      return new PedidoGerado(pedidoId, ciclo, porSequencia, total, email, eventos);
    }
  }
}
