package pedidos.dominio;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Random histories of one order as the provider would send them: a lifecycle (the seed's, or any
 * sequence of statuses, so terminal regressions come up), versioned by sequence (with ties) or by
 * instant (with several facts in the same millisecond), with conflicting field values, unknown
 * types and unreadable instants, delivered shuffled and duplicated.
 */
final class Historias {

  /** The events of one order and the deliveries of them, in arrival order. */
  record Historia(List<Evento> eventos, List<Evento> chegadas) {

    List<Fato> fatos() {
      List<Fato> fatos = new ArrayList<>();
      for (Evento evento : eventos) {
        if (evento.interpretacao() instanceof Fato fato) {
          fatos.add(fato);
        }
      }
      return fatos;
    }

    /** The same events delivered once each, in the order of their first arrival. */
    List<Evento> semDuplicatas() {
      return chegadas.stream().distinct().toList();
    }
  }

  record Evento(String eventoId, Interpretacao interpretacao) {}

  private static final List<List<Status>> CICLOS_DA_SEMENTE =
      List.of(
          List.of(Status.CRIADO, Status.PAGO, Status.ENVIADO),
          List.of(Status.CRIADO, Status.CANCELADO),
          List.of(Status.CRIADO, Status.PAGO, Status.CANCELADO),
          List.of(Status.CRIADO, Status.PAGO, Status.CANCELADO, Status.REEMBOLSADO),
          List.of(Status.CRIADO, Status.PAGO, Status.ENVIADO, Status.REEMBOLSADO),
          // terminal regressions: the provider moves a canceled or refunded order on
          List.of(Status.CRIADO, Status.PAGO, Status.CANCELADO, Status.ENVIADO),
          List.of(Status.PAGO, Status.CANCELADO, Status.ENVIADO),
          List.of(Status.CRIADO, Status.REEMBOLSADO, Status.PAGO, Status.CANCELADO));

  private static final Instant BASE = Instant.parse("2026-11-29T12:00:00Z");

  static Arbitrary<Historia> historias() {
    Arbitrary<List<Status>> ciclos =
        Arbitraries.oneOf(
            Arbitraries.of(CICLOS_DA_SEMENTE),
            Arbitraries.of(Status.class).list().ofMinSize(1).ofMaxSize(7));
    Arbitrary<Boolean> porSequencia = Arbitraries.of(true, false);
    // 0 makes ties: equal sequences, or several facts in the same millisecond
    Arbitrary<List<Integer>> passos = Arbitraries.of(0, 0, 1, 1, 2, 7, 1000).list().ofSize(8);
    Arbitrary<List<Long>> totais = Arbitraries.of(null, null, 1000L, 2500L).list().ofSize(8);
    Arbitrary<List<String>> emails =
        Arbitraries.of(null, null, "a@loja", "b@loja").list().ofSize(8);
    Arbitrary<Integer> extras = Arbitraries.integers().between(0, 2);
    Arbitrary<Long> sementeDaChegada = Arbitraries.longs();
    return Combinators.combine(
            ciclos, porSequencia, passos, totais, emails, extras, sementeDaChegada)
        .as(Historias::montar);
  }

  private static Historia montar(
      List<Status> ciclo,
      boolean porSequencia,
      List<Integer> passos,
      List<Long> totais,
      List<String> emails,
      int extras,
      long sementeDaChegada) {
    List<Evento> eventos = new ArrayList<>();
    long posicao = 1;
    for (int i = 0; i < ciclo.size(); i++) {
      posicao += passos.get(i);
      Status status = ciclo.get(i);
      String id = "e" + i;
      String tipo = TIPOS.get(status.ordinal());
      Interpretacao interpretacao =
          porSequencia
              ? Interpretacao.doEvento(
                  id, tipo, sequencia(posicao, i), null, totais.get(i), emails.get(i))
              : Interpretacao.doEvento(
                  id, tipo, null, instante(posicao, i), totais.get(i), emails.get(i));
      eventos.add(new Evento(id, interpretacao));
    }
    for (int i = 0; i < extras; i++) {
      String id = "x" + i;
      eventos.add(
          new Evento(
              id,
              i % 2 == 0
                  ? Interpretacao.doEvento(id, "order.updated", null, "ontem", 1L, "z@loja")
                  : Interpretacao.doEvento(id, "order.paid", null, "ontem", 1L, "z@loja")));
    }
    Random random = new Random(sementeDaChegada);
    List<Evento> chegadas = new ArrayList<>();
    for (Evento evento : eventos) {
      int copias = 1 + random.nextInt(3);
      for (int c = 0; c < copias; c++) {
        chegadas.add(evento);
      }
    }
    Collections.shuffle(chegadas, random);
    return new Historia(List.copyOf(eventos), List.copyOf(chegadas));
  }

  private static final List<String> TIPOS =
      List.of("order.created", "order.paid", "order.shipped", "order.canceled", "order.refunded");

  /** Sometimes written as {@code 7.0}: still a safe integer for a JavaScript provider. */
  private static BigDecimal sequencia(long valor, int i) {
    return i % 3 == 0 ? new BigDecimal(valor + ".0") : BigDecimal.valueOf(valor);
  }

  /** Sometimes with an offset other than Z: the same instant written another way. */
  private static String instante(long ms, int i) {
    Instant instante = BASE.plusMillis(ms);
    return i % 2 == 0 ? instante.toString() : instante.atOffset(ZoneOffset.ofHours(-3)).toString();
  }

  private Historias() {}
}
