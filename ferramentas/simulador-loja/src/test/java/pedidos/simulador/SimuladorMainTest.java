package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import pedidos.infra.UsuarioDoKafka;

class SimuladorMainTest {

  @Test
  void usuarioDoKafkaViraAsPropriedadesPadraoDoCliente() {
    var comUsuario =
        Argumentos.ler(
            new String[] {"--kafka-usuario=pedidos-admin", "--kafka-senha=s3nha"},
            Set.of("kafka-usuario", "kafka-senha"));
    assertThat(SimuladorMain.clienteDoKafka(comUsuario))
        .containsEntry("security.protocol", "SASL_PLAINTEXT")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry(
            "sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required"
                + " username=\"pedidos-admin\" password=\"s3nha\";");
    assertThat(SimuladorMain.clienteDoKafka(Argumentos.ler(new String[] {}, Set.of()))).isEmpty();
  }

  private static final String SEGREDO = "segredo-cli";

  private final ByteArrayOutputStream saida = new ByteArrayOutputStream();
  private final ByteArrayOutputStream erros = new ByteArrayOutputStream();

  @Test
  void errosDeUsoSaemCom2() throws Exception {
    assertThat(executar("--segredo=s", "--jdbc=jdbc:postgresql://x/y")).isEqualTo(2);
    assertThat(texto(erros)).contains("--receptor is required").contains("usage:");
    assertThat(executar("--receptor=http://x", "--segredo=s", "--jdbc=j", "--nao-existe=1"))
        .isEqualTo(2);
    assertThat(executar("--receptor=http://x", "--segredo=s", "--jdbc=j", "--espera=logo"))
        .isEqualTo(2);
    assertThat(executar("--receptor=http://x", "--segredo=s", "--jdbc=j", "--perda=2"))
        .isEqualTo(2);
    assertThat(executar("--ajuda")).isZero();
    assertThat(texto(saida)).contains("--receptor=");
  }

  @Test
  void duracoes() {
    assertThat(Argumentos.lerDuracao("x", "500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Argumentos.lerDuracao("x", "120s")).isEqualTo(Duration.ofSeconds(120));
    assertThat(Argumentos.lerDuracao("x", "2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Argumentos.lerDuracao("x", "1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Argumentos.lerDuracao("x", "PT3S")).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void sistemaQueConvergeSai0EOQueNaoRecuperaOsPerdidosSai1() throws Exception {
    // No reconciliation here: without losses the system converges, with them it cannot.
    assertThat(rodar("0", "cli0")).as(texto(saida) + texto(erros)).isZero();
    assertThat(texto(saida)).contains("CONVERGED").contains("delivery:");

    saida.reset();
    assertThat(rodar("0.3", "cli1")).isEqualTo(1);
    assertThat(texto(saida)).contains("DIVERGED").contains("never reached the system");
  }

  private int rodar(String perda, String prefixo) throws Exception {
    BancoDeTeste banco = BancoDeTeste.novo();
    String topico = KafkaDeTeste.topicoNovo();
    try (var sistema = new SistemaDeReferencia(banco, topico, false);
        var receptor = new ReceptorDeReferencia(sistema, SEGREDO, 0)) {
      return executar(
          "--receptor=" + receptor.url(),
          "--segredo=" + SEGREDO,
          "--jdbc=" + banco.url(),
          "--usuario=" + banco.usuario(),
          "--senha=" + banco.senha(),
          "--kafka=" + KafkaDeTeste.bootstrap(),
          "--kafka-usuario=" + UsuarioDoKafka.ADMINISTRADOR.nome(),
          "--kafka-senha=" + UsuarioDoKafka.ADMINISTRADOR.senhaLocal(),
          "--topico-efeitos=" + topico,
          "--pedidos=30",
          "--taxa=1000",
          "--perda=" + perda,
          "--atraso-maximo=100ms",
          "--porta-api=0",
          "--espera=" + (perda.equals("0") ? "30s" : "1s"),
          "--prefixo=" + prefixo,
          "--semente=5");
    }
  }

  private int executar(String... args) throws InterruptedException {
    return SimuladorMain.executar(
        args,
        new PrintStream(saida, true, StandardCharsets.UTF_8),
        new PrintStream(erros, true, StandardCharsets.UTF_8));
  }

  private static String texto(ByteArrayOutputStream bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
