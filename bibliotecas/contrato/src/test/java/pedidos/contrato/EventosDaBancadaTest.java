package pedidos.contrato;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench/receptor-eventos.java} is a single-file program ({@code bench/receptor.sh} runs it
 * with {@code java -cp <contrato jar> bench/receptor-eventos.java ...}) that signs with this
 * module's {@link AssinaturaDeWebhook}. Run here the same way, against this build's classes: a
 * change here that breaks it fails this build, not the next benchmark run, and what it writes is
 * what the receptor verifies.
 */
class EventosDaBancadaTest {

  private static final Path PROGRAMA = Path.of("..", "..", "bench", "receptor-eventos.java");
  private static final String SEGREDO = "segredo-do-benchmark-com-mais-de-32-bytes";

  @Test
  void oGeradorDaBancadaAssinaComoOReceptorConfere(@TempDir Path pasta)
      throws IOException, InterruptedException {
    Path saida = pasta.resolve("eventos.txt");
    Path log = pasta.resolve("java.log");
    String java = ProcessHandle.current().info().command().orElse("java");
    Process processo =
        new ProcessBuilder(
                java,
                "-cp",
                Path.of("target", "classes").toString(),
                PROGRAMA.toString(),
                saida.toString(),
                "9",
                "p",
                SEGREDO)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertThat(processo.waitFor(2, TimeUnit.MINUTES)).as("the program ended").isTrue();
    assertThat(processo.exitValue()).as(Files.readString(log)).isZero();

    List<String> linhas = Files.readAllLines(saida, StandardCharsets.UTF_8);
    var assinatura = AssinaturaDeWebhook.doSegredo(SEGREDO);
    assertThat(linhas).hasSize(9);
    for (String linha : linhas) {
      String[] partes = linha.split("\t", 2);
      assertThat(assinatura.confereDaLoja(partes[1].getBytes(StandardCharsets.UTF_8), partes[0]))
          .as(linha)
          .isTrue();
    }
    assertThat(linhas.get(0)).contains("\"id\": \"p_0\"", "\"type\": \"order.paid\"");
  }
}
