package pedidos.receptor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;

/**
 * Puts this JVM's C2 compiler threads at the lowest scheduling priority (nice 19), on Linux. The
 * receptor keeps C2 for its ceiling, and on a small machine shared with the relay, the aplicador,
 * PostgreSQL and Kafka, C2 compiling the request path in the first seconds under load took half of
 * the receptor's CPU and left the other services short of theirs: the first minute's latency was
 * the whole pipeline waiting for cores. At nice 19 the compiler runs on what is left over; the
 * receptor meanwhile serves with C1's code, which is enough for its answer (docs/ARRANQUE.md).
 *
 * <p>Linux's nice is per thread, and lowering one's own needs no privilege. HotSpot's own setting
 * for it ({@code -XX:CompilerThreadPriority}) works only for root, so the threads are found by name
 * in {@code /proc/self/task} and lowered with {@code renice}. Where either is missing, nothing
 * changes.
 */
final class CompiladorEmSegundoPlano {

  static final int NICE = 19;
  static final String PROPRIEDADE = "receptor.aquecimento.jit-em-segundo-plano";

  private static final Logger log = LoggerFactory.getLogger(CompiladorEmSegundoPlano.class);
  // The kernel keeps 15 bytes of a thread's name: "C2 CompilerThread0" is "C2 CompilerThre".
  private static final String NOME_DO_C2 = "C2 CompilerThre";
  private static final Path TAREFAS = Path.of("/proc/self/task");

  private CompiladorEmSegundoPlano() {}

  /**
   * At the start, as soon as the configuration is known (before the context, whose start C2 would
   * otherwise compile at full priority); {@link AquecimentoDoReceptor} calls again after its
   * warm-up.
   */
  static final class NaPartida implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {
    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent evento) {
      if (evento.getEnvironment().getProperty(PROPRIEDADE, Boolean.class, Boolean.TRUE)) {
        baixar();
      }
    }
  }

  /**
   * Lowers every C2 compiler thread running now; the JVM may start more later (it adds compiler
   * threads while its queue is long), so callers call again.
   *
   * @return how many threads are at {@link #NICE} after the call
   */
  static int baixar() {
    List<String> threads;
    try {
      threads = threadsDoC2(TAREFAS);
    } catch (IOException e) {
      return 0; // not Linux, or no /proc: nothing to do
    }
    if (threads.isEmpty()) {
      return 0; // C1 only (-XX:TieredStopAtLevel=1), or no JIT
    }
    List<String> comando = new ArrayList<>(List.of("renice", "-n", Integer.toString(NICE), "-p"));
    comando.addAll(threads);
    try {
      Process renice =
          new ProcessBuilder(comando)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (renice.waitFor() != 0) {
        log.warn("renice refused to lower the JIT's threads {}: they keep their priority", threads);
        return 0;
      }
    } catch (IOException e) {
      log.warn("No renice here ({}): the JIT's threads keep their priority", e.getMessage());
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
    return threads.size();
  }

  /** The ids of the threads named as HotSpot names its C2 compiler threads. */
  static List<String> threadsDoC2(Path tarefas) throws IOException {
    List<String> ids = new ArrayList<>();
    try (Stream<Path> todas = Files.list(tarefas)) {
      for (Path tarefa : (Iterable<Path>) todas::iterator) {
        try {
          if (Files.readString(tarefa.resolve("comm")).strip().equals(NOME_DO_C2)) {
            ids.add(tarefa.getFileName().toString());
          }
        } catch (NoSuchFileException e) {
          // A thread that ended while we looked.
        }
      }
    }
    return ids;
  }
}
