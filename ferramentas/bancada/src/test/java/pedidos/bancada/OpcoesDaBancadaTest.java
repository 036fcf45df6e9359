package pedidos.bancada;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpcoesDaBancadaTest {

  private final Path raiz = Path.of("/repo");

  @Test
  void semArgumentosEAExecucaoDocumentada() {
    OpcoesDaBancada opcoes = OpcoesDaBancada.ler(new String[0], raiz);

    assertThat(opcoes.taxa()).isEqualTo(300);
    assertThat(opcoes.frio()).isEqualTo(60);
    assertThat(opcoes.aquecimento()).isEqualTo(60);
    assertThat(opcoes.quente()).isEqualTo(60);
    assertThat(opcoes.postgres()).isEqualTo("17");
    assertThat(opcoes.opcoesDaJvm()).as("ServicoEmProcesso's default").isNull();
    assertThat(opcoes.antes()).as("a first start, everything fresh").isZero();
    assertThat(opcoes.doc()).isEqualTo(raiz.resolve("docs/BENCHMARKS-ponta-a-ponta.md"));
    assertThat(opcoes.comando()).isEqualTo("bench/ponta-a-ponta.sh");
  }

  @Test
  void oComandoRepeteAsOpcoesDadas() {
    OpcoesDaBancada opcoes =
        OpcoesDaBancada.ler(
            new String[] {
              "--frio", "20", "--jvm", "-Xmx512m -XX:+UseSerialGC", "--antes", "90", "--doc", "-"
            },
            raiz);

    assertThat(opcoes.opcoesDaJvm()).isEqualTo(List.of("-Xmx512m", "-XX:+UseSerialGC"));
    assertThat(opcoes.doc()).isNull();
    assertThat(opcoes.antes()).isEqualTo(90);
    assertThat(opcoes.total()).as("the measured run's seconds").isEqualTo(140);
    assertThat(opcoes.comando())
        .isEqualTo(
            "bench/ponta-a-ponta.sh --frio 20 --jvm \"-Xmx512m -XX:+UseSerialGC\" --antes 90");
  }

  @Test
  void opcaoDesconhecidaOuSemValorERecusada() {
    assertThatThrownBy(() -> OpcoesDaBancada.ler(new String[] {"--rapido", "1"}, raiz))
        .hasMessageContaining("unknown option --rapido");
    assertThatThrownBy(() -> OpcoesDaBancada.ler(new String[] {"--taxa"}, raiz))
        .hasMessageContaining("--taxa needs a value");
    assertThatThrownBy(() -> OpcoesDaBancada.ler(new String[] {"--antes", "-1"}, raiz))
        .hasMessageContaining("must be positive");
  }
}
