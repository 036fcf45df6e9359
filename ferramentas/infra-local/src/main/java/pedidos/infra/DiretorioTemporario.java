package pedidos.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A scratch directory under {@code java.io.tmpdir/pedidos-infra-local}, locked for as long as its
 * owner lives.
 *
 * <p>The lock is what tells a later JVM that a directory was abandoned by a killed one (the OS
 * drops the lock with the process), so it can clean it up, stopping its PostgreSQL first.
 */
final class DiretorioTemporario implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DiretorioTemporario.class);
  private static final String TRAVA = "infra-lock";
  // A directory without its lock yet is being created by someone right now.
  private static final Duration IDADE_MINIMA_SEM_TRAVA = Duration.ofMinutes(2);
  // Covers the instant between creating the lock file and locking it.
  private static final Duration IDADE_MINIMA_DA_TRAVA = Duration.ofSeconds(10);

  // POSIX record locks belong to the process: closing ANY descriptor of a locked file drops the
  // JVM's lock on it. So this JVM never opens the lock file of a directory it owns; it knows them.
  private static final Set<Path> DESTA_JVM = ConcurrentHashMap.newKeySet();

  private final Path caminho;
  private final FileChannel canal;
  private final FileLock trava;

  private DiretorioTemporario(Path caminho, FileChannel canal, FileLock trava) {
    this.caminho = caminho;
    this.canal = canal;
    this.trava = trava;
  }

  /**
   * Creates and locks a new directory, after removing abandoned ones of the same kind.
   *
   * @param antesDeApagar runs on an abandoned directory before it is deleted
   */
  static DiretorioTemporario criar(String prefixo, Consumer<Path> antesDeApagar) {
    try {
      Path raiz =
          Files.createDirectories(
              Path.of(System.getProperty("java.io.tmpdir"), "pedidos-infra-local"));
      varrerAbandonados(raiz, prefixo, antesDeApagar);
      Path caminho = Files.createTempDirectory(raiz, prefixo);
      FileChannel canal =
          FileChannel.open(
              caminho.resolve(TRAVA), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      DiretorioTemporario diretorio = new DiretorioTemporario(caminho, canal, canal.lock());
      DESTA_JVM.add(caminho.toAbsolutePath().normalize());
      return diretorio;
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a scratch directory", e);
    }
  }

  Path caminho() {
    return caminho;
  }

  @Override
  public void close() {
    try {
      trava.release();
      canal.close();
      DESTA_JVM.remove(caminho.toAbsolutePath().normalize());
      apagarArvore(caminho);
    } catch (IOException e) {
      log.warn("Could not delete {}", caminho, e);
    }
  }

  private static void varrerAbandonados(Path raiz, String prefixo, Consumer<Path> antesDeApagar)
      throws IOException {
    try (DirectoryStream<Path> filhos = Files.newDirectoryStream(raiz, prefixo + "*")) {
      for (Path filho : filhos) {
        if (abandonado(filho)) {
          try {
            log.info("Removing {} left behind by a JVM that did not stop cleanly", filho);
            antesDeApagar.accept(filho);
            apagarArvore(filho);
          } catch (IOException | RuntimeException e) {
            log.warn("Could not remove abandoned {}", filho, e);
          }
        }
      }
    }
  }

  private static boolean abandonado(Path diretorio) {
    if (DESTA_JVM.contains(diretorio.toAbsolutePath().normalize())) {
      return false;
    }
    Path arquivoDaTrava = diretorio.resolve(TRAVA);
    if (!Files.exists(arquivoDaTrava)) {
      return maisVelhoQue(diretorio, IDADE_MINIMA_SEM_TRAVA);
    }
    // WRITE without CREATE/TRUNCATE: probing must not look like a fresh directory to others.
    try (FileChannel canal = FileChannel.open(arquivoDaTrava, StandardOpenOption.WRITE);
        FileLock trava = canal.tryLock()) {
      return trava != null && maisVelhoQue(arquivoDaTrava, IDADE_MINIMA_DA_TRAVA);
    } catch (OverlappingFileLockException | IOException e) {
      return false;
    }
  }

  private static boolean maisVelhoQue(Path caminho, Duration idade) {
    try {
      return Files.getLastModifiedTime(caminho).toInstant().isBefore(Instant.now().minus(idade));
    } catch (IOException e) {
      return false;
    }
  }

  static void apagarArvore(Path raiz) throws IOException {
    if (!Files.exists(raiz)) {
      return;
    }
    Files.walkFileTree(
        raiz,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path arquivo, BasicFileAttributes atributos)
              throws IOException {
            Files.deleteIfExists(arquivo);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path diretorio, IOException erro)
              throws IOException {
            Files.deleteIfExists(diretorio);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
