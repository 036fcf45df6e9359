package pedidos.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A service's class archive, made from its own runs (docs/ARRANQUE.md): the JVM loads the classes
 * it archived already parsed and verified instead of reading them from the jar. The fat jar is
 * extracted once per build ({@code java -Djarmode=tools -jar x.jar extract}: a jar of the
 * application and its libraries beside it, which the archive can hold; classes inside a fat jar's
 * nested jars cannot be archived). The first run after a build records the archive when it stops
 * (JDK 17: {@code -XX:ArchiveClassesAtExit}, a dynamic archive; JDK 25: {@code -XX:AOTCacheOutput},
 * the AOT cache, which also keeps the run's method profiles and linked classes), every later run
 * maps it. A service killed with SIGKILL writes none, so the next start records again. A stale
 * archive is never used: a new jar removes it, and the JVM itself refuses an archive whose jars
 * changed (and then runs without one).
 */
public final class ArquivoDeClasses {

  /** Set to {@code false} to run the fat jar as built, without an archive. */
  static final String PROPRIEDADE = "pedidos.arquivo-de-classes";

  private ArquivoDeClasses() {}

  /** What to run: the jar (the extracted one when an archive applies) and the options it adds. */
  public record Partida(Path jar, List<String> opcoes) {}

  /**
   * The jar to run and the archive options, for a service jar run by this JVM's {@code java}, as
   * {@link ServicoEmProcesso} runs it (this JVM's version decides between the dynamic archive and
   * the AOT cache). Without the tools jar mode in the jar, or if extracting fails, the fat jar as
   * it is. For one process per jar at a time (the local run): two processes recording one archive
   * at once would race to write it.
   */
  public static Partida preparar(Path jar) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (!Boolean.parseBoolean(System.getProperty(PROPRIEDADE, "true"))
        || !Files.isRegularFile(jar)) {
      return new Partida(jar, List.of());
    }
    String nome = jar.getFileName().toString();
    Path pasta = jar.toAbsolutePath().getParent().resolve("arquivo-de-classes");
    Path extraido = pasta.resolve(nome);
    int versao = Runtime.version().feature();
    boolean cacheAot = versao >= 25;
    Path arquivo =
        pasta.resolve(
            nome.replaceFirst("\\.jar$", "") + "-jdk" + versao + (cacheAot ? ".aot" : ".jsa"));
    try {
      FileTime doJar = Files.getLastModifiedTime(jar);
      if (!Files.isRegularFile(extraido)
          || Files.getLastModifiedTime(extraido).compareTo(doJar) < 0) {
        extrair(jar, pasta, java);
        Files.setLastModifiedTime(extraido, doJar);
        try (var antigos = Files.newDirectoryStream(pasta, "*.{jsa,aot}")) {
          for (Path antigo : antigos) {
            Files.delete(antigo);
          }
        }
      }
    } catch (IOException | IllegalStateException e) {
      return new Partida(jar, List.of());
    }
    List<String> opcoes = new ArrayList<>();
    if (Files.isRegularFile(arquivo)) {
      opcoes.add((cacheAot ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + arquivo);
    } else {
      opcoes.add((cacheAot ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + arquivo);
    }
    // The archive's warnings about classes it cannot hold (generated accessors, proxies) are noise.
    opcoes.add(cacheAot ? "-Xlog:aot=error,cds=error" : "-Xlog:cds=error");
    return new Partida(extraido, opcoes);
  }

  private static void extrair(Path jar, Path pasta, String java) throws IOException {
    Files.createDirectories(pasta);
    Process extracao =
        new ProcessBuilder(
                java,
                "-Djarmode=tools",
                "-jar",
                jar.toAbsolutePath().toString(),
                "extract",
                "--force",
                "--destination",
                pasta.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      if (!extracao.waitFor(2, TimeUnit.MINUTES) || extracao.exitValue() != 0) {
        extracao.destroyForcibly();
        throw new IllegalStateException("could not extract " + jar);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while extracting " + jar, e);
    }
  }
}
