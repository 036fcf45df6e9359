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

  /** The repository's own file, as every service process is started with it, is one a JVM takes. */
  @Test
  void umaJvmAceitaAsOpcoesDosServicos() throws Exception {
    List<String> opcoes = OpcoesDaJvm.dosServicos();
    assertThat(opcoes).first().isEqualTo("-Xmx512m");
    if (System.getenv(OpcoesDaJvm.VARIAVEL) == null) {
      assertThat(opcoes).anyMatch(o -> o.startsWith("@") && o.endsWith(OpcoesDaJvm.ARQUIVO));
    }
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
