package pedidos.aplicador.replay;

import java.time.Instant;
import java.util.List;

/**
 * What to replay: a topic, some partitions or all, from an offset or an instant to an offset or an
 * instant. The {@code replay} command reads it from its options.
 *
 * @param topico {@code null} for the topic the applier is configured to read
 * @param particoes empty for all of the topic's partitions
 * @param deOffset first offset replayed, or {@code null}
 * @param deInstante first record time replayed, or {@code null}; neither: from the beginning
 * @param ateOffset last offset replayed (inclusive), or {@code null}
 * @param ateInstante records at or after this time are not replayed, or {@code null}; neither: up
 *     to the end the partition had when the replay started
 */
public record OpcoesDeReplay(
    String topico,
    List<Integer> particoes,
    Long deOffset,
    Instant deInstante,
    Long ateOffset,
    Instant ateInstante) {

  public OpcoesDeReplay {
    if (deOffset != null && deInstante != null) {
      throw new IllegalArgumentException("--de-offset and --de-instante exclude each other");
    }
    if (ateOffset != null && ateInstante != null) {
      throw new IllegalArgumentException("--ate-offset and --ate-instante exclude each other");
    }
    particoes = List.copyOf(particoes);
  }
}
