package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpcoesDaJvmTest {

  @Test
  void achaOArquivoSubindoDaPastaDoModulo(@TempDir Path raiz) throws Exception {
    Path arquivo = raiz.resolve(OpcoesDaJvm.ARQUIVO);
    Files.createDirectories(arquivo.getParent());
    Files.writeString(arquivo, "-XX:+UseSerialGC\n");
    Path modulo = Files.createDirectories(raiz.resolve("testes-de-sistema/ponta-a-ponta"));

    assertThat(OpcoesDaJvm.arquivo(modulo)).contains(arquivo);
    assertThat(OpcoesDaJvm.arquivo(raiz.getParent())).isEmpty();
  }

  @Test
  void oArquivoDoModuloVemDepoisDoComum(@TempDir Path raiz) throws Exception {
    Path comum = raiz.resolve(OpcoesDaJvm.ARQUIVO);
    Files.createDirectories(comum.getParent().resolve("aplicador"));
    Files.writeString(comum, "-XX:+UseSerialGC\n");
    Path doAplicador = comum.resolveSibling("aplicador").resolve(OpcoesDaJvm.NOME);
    Files.writeString(doAplicador, "-XX:TieredStopAtLevel=1\n");

    assertThat(OpcoesDaJvm.doModulo(comum.getParent(), "aplicador"))
        .containsExactly("-Xmx512m", "@" + comum, "@" + doAplicador);
    assertThat(OpcoesDaJvm.doModulo(comum.getParent(), "receptor"))
        .as("a module without a file of its own: the shared file only")
        .containsExactly("-Xmx512m", "@" + comum);
  }

  /**
   * The repository's own files, as each service's process is started with them, are ones a JVM
   * takes; the relay and the aplicador run C1 only, the receptor keeps C2.
   */
  @Test
  void umaJvmAceitaAsOpcoesDeCadaServico() throws Exception {
    for (String modulo : List.of("receptor", "aplicador", "publicador-outbox")) {
      List<String> opcoes = OpcoesDaJvm.doModulo(modulo);
      assertThat(opcoes).first().isEqualTo("-Xmx512m");
      if (System.getenv(OpcoesDaJvm.VARIAVEL) == null) {
        assertThat(opcoes)
            .anyMatch(o -> o.equals("@" + raizDoRepositorio().resolve(OpcoesDaJvm.ARQUIVO)));
        assertThat(opcoes.get(opcoes.size() - 1))
            .isEqualTo("@" + raizDoRepositorio().resolve(modulo + "/opcoes-da-jvm"));
        aceita(opcoes);
      }
    }
    if (System.getenv(OpcoesDaJvm.VARIAVEL) == null) {
      assertThat(Files.readString(raizDoRepositorio().resolve("aplicador/opcoes-da-jvm")))
          .contains("\n-XX:TieredStopAtLevel=1\n");
      assertThat(Files.readString(raizDoRepositorio().resolve("publicador-outbox/opcoes-da-jvm")))
          .contains("\n-XX:TieredStopAtLevel=1\n");
      assertThat(Files.readString(raizDoRepositorio().resolve("receptor/opcoes-da-jvm")))
          .as("the receptor keeps C2: its ceiling (issue 3)")
          .doesNotContain("\n-XX:TieredStopAtLevel");
    }
  }

  /**
   * The receptor's JIT runs in the background (receptor/opcoes-da-jvm): its compiler threads at
   * nice 19, so on a shared machine its first minute's compiling waits for the requests, the relay,
   * the aplicador and PostgreSQL; every other thread keeps the nice it would have without the
   * options (as root too, where HotSpot's own table would raise the GC's and lower others').
   */
  @Test
  void osCompiladoresDoReceptorCedemACpuEAsOutrasThreadsNao() throws Exception {
    if (System.getenv(OpcoesDaJvm.VARIAVEL) != null) {
      return;
    }
    List<String> comando = new ArrayList<>();
    comando.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    comando.addAll(OpcoesDaJvm.doModulo("receptor"));
    comando.add("-cp");
    comando.add(
        Path.of(NiceDasThreads.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString());
    comando.add(NiceDasThreads.class.getName());
    Process java = new ProcessBuilder(comando).redirectErrorStream(true).start();
    String saida = new String(java.getInputStream().readAllBytes());
    assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(java.exitValue()).as(saida).isZero();

    List<String> threads = saida.lines().filter(l -> l.matches("-?\\d+ .+")).toList();
    // JDK 17's code cache sweeper is started as a compiler thread too.
    String daCompilacao = "-?\\d+ (C[12] CompilerThre.*|Sweeper thread)";
    assertThat(threads.stream().filter(l -> l.matches(daCompilacao)))
        .as(saida)
        .hasSizeGreaterThanOrEqualTo(2)
        .allMatch(l -> l.startsWith("19 "));
    assertThat(threads.stream().filter(l -> !l.matches(daCompilacao)))
        .as(saida)
        .hasSizeGreaterThan(5)
        .allMatch(l -> l.startsWith("0 "));
  }

  private static Path raizDoRepositorio() {
    return OpcoesDaJvm.arquivo(Path.of("").toAbsolutePath()).orElseThrow().getParent();
  }

  private static void aceita(List<String> opcoes) throws Exception {
    List<String> comando = new ArrayList<>();
    comando.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    comando.addAll(opcoes);
    comando.add("-version");
    Process java = new ProcessBuilder(comando).redirectErrorStream(true).start();
    String saida = new String(java.getInputStream().readAllBytes());
    assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(java.exitValue()).as(saida).isZero();
  }
}
