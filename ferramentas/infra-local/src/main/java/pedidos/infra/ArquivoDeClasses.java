package pedidos.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How the local run starts a service jar so that it starts cheaper (measured in docs/ARRANQUE.md):
 * extracted ({@code java -Djarmode=tools -jar x.jar extract}: the application jar with its
 * libraries beside it), which on JDK 17 cost a quarter less CPU to start than the fat jar, whose
 * nested jars are read through Spring Boot's own class loader; and on JDK 25 and newer with an AOT
 * cache (JEP 483/515), which halved the CPU of a start. The first run after a build records what
 * the service loads and profiles when it stops ({@code -XX:AOTMode=record}); the next start
 * assembles the cache from that ({@code -XX:AOTMode=create}) and maps it ({@code -XX:AOTCache}), as
 * does every later one. A service killed with SIGKILL records nothing, and the next start records
 * again; a new jar removes both, and the JVM itself refuses a cache whose jars changed (and then
 * runs without one).
 *
 * <p>JDK 17's dynamic class archive ({@code -XX:ArchiveClassesAtExit}) is not used: it saved 7 % of
 * the start's CPU, and a service started with it and a flight recording crashed in the JVM.
 */
public final class ArquivoDeClasses {

  /** Set to {@code false} to run the fat jar as built, without a cache. */
  static final String PROPRIEDADE = "pedidos.arquivo-de-classes";

  private ArquivoDeClasses() {}

  /** What to run: the jar (extracted, unless that failed) and the options it adds. */
  public record Partida(Path jar, List<String> opcoes) {}

  /**
   * The jar to run and the cache options, for a service jar run by this JVM's {@code java}, as
   * {@link ServicoEmProcesso} runs it (this JVM's version decides whether there is a cache).
   * Without the tools jar mode in the jar, or if extracting fails, the fat jar as it is. For one
   * process per jar at a time (the local run): two processes recording one cache at once would race
   * to write it.
   */
  public static Partida preparar(Path jar) {
    String java = ServicoEmProcesso.javaDestaJvm();
    if (!Boolean.parseBoolean(System.getProperty(PROPRIEDADE, "true"))
        || !Files.isRegularFile(jar)) {
      return new Partida(jar, List.of());
    }
    String nome = jar.getFileName().toString();
    Path pasta = jar.toAbsolutePath().getParent().resolve("arquivo-de-classes");
    Path extraido = pasta.resolve(nome);
    int versao = Runtime.version().feature();
    Path arquivo = pasta.resolve(nome.replaceFirst("\\.jar$", "") + "-jdk" + versao + ".aot");
    try {
      FileTime doJar = Files.getLastModifiedTime(jar);
      if (!Files.isRegularFile(extraido)
          || Files.getLastModifiedTime(extraido).compareTo(doJar) < 0) {
        extrair(jar, pasta, java);
        Files.setLastModifiedTime(extraido, doJar);
        try (var antigos = Files.newDirectoryStream(pasta, "*.{aot,aotconf}")) {
          for (Path antigo : antigos) {
            Files.delete(antigo);
          }
        }
      }
    } catch (IOException | IllegalStateException e) {
      return new Partida(jar, List.of());
    }
    List<String> opcoes = new ArrayList<>();
    if (versao >= 25) {
      Path configuracao = pasta.resolve(arquivo.getFileName().toString() + "conf");
      if (!Files.isRegularFile(arquivo) && Files.isRegularFile(configuracao)) {
        criarCache(java, configuracao, arquivo, extraido);
      }
      if (Files.isRegularFile(arquivo)) {
        opcoes.add("-XX:AOTCache=" + arquivo);
      } else {
        // Two steps, not JEP 514's one (-XX:AOTCacheOutput): that one assembles the cache in a
        // child JVM as the service exits, which outlived the launcher's 30 s wait for a stop under
        // load and was killed; recording only writes the configuration at exit.
        opcoes.add("-XX:AOTMode=record");
        opcoes.add("-XX:AOTConfiguration=" + configuracao);
      }
      // Its warnings about classes it cannot hold (generated accessors, proxies) are noise.
      opcoes.add("-Xlog:aot=error,cds=error");
    }
    return new Partida(extraido, opcoes);
  }

  /**
   * Assembles the cache from the configuration the last run recorded, before the service starts; a
   * configuration the JVM cannot use (a run killed while writing it) is removed, and the run
   * records again.
   */
  private static void criarCache(String java, Path configuracao, Path cache, Path jar) {
    try {
      executar(
          List.of(
              java,
              "-XX:AOTMode=create",
              "-XX:AOTConfiguration=" + configuracao,
              "-XX:AOTCache=" + cache,
              "-Xlog:aot=error,cds=error",
              "-cp",
              jar.toString()),
          "could not assemble " + cache);
    } catch (IOException | IllegalStateException e) {
      // the run records again
    }
    try {
      if (!Files.isRegularFile(cache)) {
        Files.deleteIfExists(configuracao);
      }
    } catch (IOException e) {
      // recorded over at the next stop
    }
  }

  private static void extrair(Path jar, Path pasta, String java) throws IOException {
    Files.createDirectories(pasta);
    executar(
        List.of(
            java,
            "-Djarmode=tools",
            "-jar",
            jar.toAbsolutePath().toString(),
            "extract",
            "--force",
            "--destination",
            pasta.toString()),
        "could not extract " + jar);
  }

  private static void executar(List<String> comando, String falha) throws IOException {
    Process processo =
        new ProcessBuilder(comando)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      if (!processo.waitFor(5, TimeUnit.MINUTES) || processo.exitValue() != 0) {
        processo.destroyForcibly();
        throw new IllegalStateException(falha);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(falha, e);
    }
  }
}
