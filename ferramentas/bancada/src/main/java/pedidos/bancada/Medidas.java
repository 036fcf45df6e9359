package pedidos.bancada;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * One event as the load generator sent it, as PostgreSQL stored and applied it, and when the relay
 * sent it to Kafka ({@code publicadoUs}, 0 when unknown).
 */
record Medidas(
    String id,
    long agendadoUs,
    long enviadoUs,
    long respostaUs,
    int status,
    long recebidoUs,
    long aplicadoUs,
    long commitUs,
    long publicadoUs) {

  /** The events scheduled from second {@code de} to {@code ate} after the first event. */
  static List<Medidas> agendadosEntre(List<Medidas> eventos, long inicioUs, int de, int ate) {
    long a = inicioUs + de * 1_000_000L;
    long b = inicioUs + ate * 1_000_000L;
    return eventos.stream().filter(m -> m.agendadoUs() >= a && m.agendadoUs() < b).toList();
  }

  boolean aplicado() {
    return status == 200 && aplicadoUs > 0;
  }

  /** p50, p99 and max in ms of a duration in µs over the events that have it. */
  record Percentis(int n, double p50, double p99, double max) {
    static Percentis de(List<Medidas> eventos, ToLongFunction<Medidas> duracaoUs) {
      long[] valores =
          eventos.stream().mapToLong(duracaoUs).filter(v -> v != Long.MIN_VALUE).toArray();
      Arrays.sort(valores);
      if (valores.length == 0) {
        return new Percentis(0, Double.NaN, Double.NaN, Double.NaN);
      }
      return new Percentis(
          valores.length,
          percentil(valores, 0.50) / 1000.0,
          percentil(valores, 0.99) / 1000.0,
          valores[valores.length - 1] / 1000.0);
    }

    /** Nearest rank, as the load generator's own summary. */
    private static long percentil(long[] ordenados, double p) {
      int i = (int) Math.ceil(p * ordenados.length) - 1;
      return ordenados[Math.max(0, Math.min(ordenados.length - 1, i))];
    }
  }

  /** Inbox insert ({@code recebido_em}) to the start of the apply ({@code aplicado_em}). */
  static long entradaAteAplicado(Medidas m) {
    return m.aplicado() ? m.aplicadoUs - m.recebidoUs : Long.MIN_VALUE;
  }

  /** Inbox insert to the commit of the apply ({@code pg_xact_commit_timestamp}). */
  static long entradaAteCommit(Medidas m) {
    return m.aplicado() && m.commitUs > 0 ? m.commitUs - m.recebidoUs : Long.MIN_VALUE;
  }

  /**
   * Inbox insert to the relay's {@code send()} of the row (the record's CreateTime, ms resolution):
   * the relay's part, WAL decoding and Debezium's batching included.
   */
  static long entradaAtePublicado(Medidas m) {
    return m.aplicado() && m.publicadoUs > 0 ? m.publicadoUs - m.recebidoUs : Long.MIN_VALUE;
  }

  /** The relay's {@code send()} to the start of the apply: producer, broker, listener. */
  static long publicadoAteAplicado(Medidas m) {
    return m.aplicado() && m.publicadoUs > 0 ? m.aplicadoUs - m.publicadoUs : Long.MIN_VALUE;
  }

  /** The receptor's answer as the load generator saw it: its send to the 200. */
  static long respostaDoReceptor(Medidas m) {
    return m.status == 200 ? m.respostaUs - m.enviadoUs : Long.MIN_VALUE;
  }
}
