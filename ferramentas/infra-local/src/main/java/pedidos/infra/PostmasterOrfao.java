package pedidos.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a postmaster that outlived the JVM which started it.
 *
 * <p>pg_ctl detaches the postmaster, so a killed JVM leaves it running, holding the port and the
 * data directory: the next start would fail or, worse, talk to the old server.
 */
final class PostmasterOrfao {

  private static final Logger log = LoggerFactory.getLogger(PostmasterOrfao.class);
  private static final Duration ESPERA_DESLIGAR = Duration.ofSeconds(15);

  private PostmasterOrfao() {}

  /** Callers must have made sure no live process of ours owns the directory. */
  static void pararSeVivo(Path dados) {
    Optional<ProcessHandle> processo = postmasterDoArquivo(dados);
    if (processo.isEmpty()) {
      return;
    }
    ProcessHandle postmaster = processo.get();
    if (naoEhPostgres(postmaster)) {
      // The PID was reused by an unrelated program; PostgreSQL would refuse to start while the
      // PID in its lock file is alive, so the file is the stale part here.
      apagar(dados.resolve("postmaster.pid"));
      return;
    }
    log.warn(
        "Stopping PostgreSQL left running by a previous process (pid {}) on {}",
        postmaster.pid(),
        dados);
    sinalizarDesligamentoRapido(postmaster);
    if (esperarFim(postmaster, ESPERA_DESLIGAR)) {
      return;
    }
    // Backends go with it, otherwise they keep the old shared memory and block the new server.
    postmaster.descendants().forEach(ProcessHandle::destroyForcibly);
    postmaster.destroyForcibly();
    if (!esperarFim(postmaster, ESPERA_DESLIGAR)) {
      throw new IllegalStateException(
          "could not stop the PostgreSQL (pid " + postmaster.pid() + ") still running on " + dados);
    }
  }

  /** True while a postmaster started on this directory is alive. */
  static boolean vivo(Path dados) {
    return postmasterDoArquivo(dados).isPresent();
  }

  private static Optional<ProcessHandle> postmasterDoArquivo(Path dados) {
    List<String> linhas;
    try {
      linhas = Files.readAllLines(dados.resolve("postmaster.pid"));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (linhas.isEmpty()) {
      return Optional.empty();
    }
    try {
      return ProcessHandle.of(Long.parseLong(linhas.get(0).trim())).filter(ProcessHandle::isAlive);
    } catch (NumberFormatException e) {
      // A file cut short by a crash: PostgreSQL rewrites it itself.
      return Optional.empty();
    }
  }

  /** Only a positive "this is something else" answers true: wrongly deleting the file is worse. */
  private static boolean naoEhPostgres(ProcessHandle processo) {
    Optional<String> nome =
        processo
            .info()
            .command()
            .map(c -> Path.of(c).getFileName().toString())
            .or(() -> comm(processo));
    return nome.isPresent() && !nome.get().equals("postgres");
  }

  private static Optional<String> comm(ProcessHandle processo) {
    try {
      return Optional.of(
          Files.readString(Path.of("/proc", Long.toString(processo.pid()), "comm")).trim());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static void sinalizarDesligamentoRapido(ProcessHandle postmaster) {
    // SIGINT is PostgreSQL's "fast" shutdown (what pg_ctl stop -m fast sends); Java can only send
    // TERM ("smart", waits for clients) or KILL, hence the kill command.
    try {
      Process kill =
          new ProcessBuilder("kill", "-INT", Long.toString(postmaster.pid()))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (kill.waitFor(5, TimeUnit.SECONDS) && kill.exitValue() == 0) {
        return;
      }
    } catch (IOException e) {
      log.debug("kill -INT failed, using SIGTERM", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    postmaster.destroy();
  }

  private static boolean esperarFim(ProcessHandle processo, Duration limite) {
    try {
      processo.onExit().get(limite.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return !processo.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !processo.isAlive();
    }
  }

  private static void apagar(Path arquivo) {
    try {
      Files.deleteIfExists(arquivo);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
