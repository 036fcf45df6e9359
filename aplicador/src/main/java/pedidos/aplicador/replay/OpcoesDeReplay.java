package pedidos.aplicador.replay;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * What to replay: a topic, some partitions or all, from an offset or an instant to an offset or an
 * instant. Read from the command line: {@code replay [--topico=T] [--particao=N]... [--de-offset=N
 * | --de-instante=ISO] [--ate-offset=N | --ate-instante=ISO]}.
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

  static final String USO =
      "usage: replay [--topico=T] [--particao=N]... [--de-offset=N | --de-instante=ISO]"
          + " [--ate-offset=N | --ate-instante=ISO]";

  public OpcoesDeReplay {
    if (deOffset != null && deInstante != null) {
      throw new IllegalArgumentException("--de-offset and --de-instante exclude each other");
    }
    if (ateOffset != null && ateInstante != null) {
      throw new IllegalArgumentException("--ate-offset and --ate-instante exclude each other");
    }
    particoes = List.copyOf(particoes);
  }

  public static OpcoesDeReplay ler(List<String> argumentos) {
    String topico = null;
    List<Integer> particoes = new ArrayList<>();
    Long deOffset = null;
    Instant deInstante = null;
    Long ateOffset = null;
    Instant ateInstante = null;
    for (String argumento : argumentos) {
      int igual = argumento.indexOf('=');
      if (!argumento.startsWith("--") || igual < 0) {
        throw new IllegalArgumentException("not an option: " + argumento + "\n" + USO);
      }
      String nome = argumento.substring(2, igual);
      String valor = argumento.substring(igual + 1);
      try {
        switch (nome) {
          case "topico" -> topico = valor;
          case "particao" -> particoes.add(Integer.parseInt(valor));
          case "de-offset" -> deOffset = Long.parseLong(valor);
          case "de-instante" -> deInstante = Instant.parse(valor);
          case "ate-offset" -> ateOffset = Long.parseLong(valor);
          case "ate-instante" -> ateInstante = Instant.parse(valor);
          default -> throw new IllegalArgumentException("unknown option --" + nome + "\n" + USO);
        }
      } catch (NumberFormatException | DateTimeParseException e) {
        throw new IllegalArgumentException("bad value for --" + nome + ": " + valor + "\n" + USO);
      }
    }
    return new OpcoesDeReplay(topico, particoes, deOffset, deInstante, ateOffset, ateInstante);
  }
}
