package pedidos.aplicador.comandos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import pedidos.aplicador.replay.OpcoesDeReplay;
import picocli.CommandLine;

/**
 * The command line without a database or a broker: help, usage errors and how options are read.
 * What each command does is tested with its feature (ReplayTest, RetencaoTest,
 * ApagamentoDeClienteTest), through this same command line.
 */
class LinhaDeComandoTest {

  /** No command here gets as far as the service's context. */
  private static final ServicoSemOuvinte SEM_SERVICO =
      () -> {
        throw new IllegalStateException("the service's context is not for this test");
      };

  private record Execucao(int codigo, String saida, String erro) {}

  @ParameterizedTest
  @ValueSource(
      strings = {
        "replay",
        "migrar",
        "apagar-cliente",
        "reter",
        "pausar-entrega",
        "retomar-entrega"
      })
  void aAjudaDeCadaComandoDizComoUsaloESaiComZero(String comando) {
    for (String ajuda : List.of("--help", "-h")) {
      Execucao execucao = executar(Map.of(), comando, ajuda);

      assertThat(execucao.codigo()).isZero();
      assertThat(execucao.saida())
          .startsWith("Usage: java -jar aplicador.jar " + comando + " [-h]")
          .contains("-h, --help", "Exit codes:", "Environment:");
      assertThat(execucao.erro()).isEmpty();
    }
    assertThat(executar(Map.of(), "help", comando).saida())
        .startsWith("Usage: java -jar aplicador.jar " + comando);
  }

  @Test
  void aAjudaGeralListaOsComandosEOServico() {
    Execucao execucao = executar(Map.of(), "--help");

    assertThat(execucao.codigo()).isZero();
    assertThat(execucao.saida())
        .contains(
            "replay", "migrar", "apagar-cliente", "reter", "pausar-entrega", "retomar-entrega")
        .contains("Without a command it runs as the service")
        .contains("the database is down, unsupported or not migrated");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "replay --depois=1                    | Unknown option: '--depois=1'",
        "replay --particao=um                 | Invalid value for option '--particao' (N): 'um' is not an int",
        "replay --de-instante=ontem           | write it in UTC, as 2026-11-30T10:00:00Z",
        "replay --de-offset=1 --de-instante=2026-11-30T10:00:00Z | mutually exclusive",
        "replay --ate-offset=1 --ate-instante=2026-11-30T10:00:00Z | mutually exclusive",
        "migrar --email=a@b.c                 | Unknown option: '--email=a@b.c'",
        "apagar-cliente                       | Missing required option: '--email=ADDRESS'",
        "apagar-cliente --email=a@b.c --emial=x | Unknown option: '--emial=x'",
        "apagar-cliente --email=sem-arroba    | Invalid value for option '--email'",
        "apagar-cliente --email=a@b.c --email=d@e.f | option '--email' (ADDRESS) should be specified only once",
        "reter --lote=2                       | Unknown option: '--lote=2'",
        "replya                               | Unmatched argument at index 0: 'replya'",
      })
  void umaOpcaoErradaSaiComDoisEDizQualOpcao(String argumentos, String mensagem) {
    Execucao execucao = executar(Map.of(), argumentos.strip().split(" +"));

    assertThat(execucao.codigo()).isEqualTo(CommandLine.ExitCode.USAGE).isEqualTo(2);
    assertThat(execucao.erro()).contains(mensagem.strip());
    assertThat(execucao.saida()).isEmpty();
  }

  @Test
  void semAsVariaveisDoBancoEUmErroDeUso() {
    assertThat(executar(Map.of(), "migrar").erro())
        .startsWith(
            "migrar needs SPRING_FLYWAY_URL (or SPRING_DATASOURCE_URL) and SPRING_FLYWAY_USER")
        .contains("See 'java -jar aplicador.jar migrar --help'.");
    assertThat(executar(Map.of(), "migrar").codigo()).isEqualTo(2);
    assertThat(
            executar(Map.of("SPRING_DATASOURCE_URL", "jdbc:postgresql://x/y"), "migrar").codigo())
        .as("the owner role is missing")
        .isEqualTo(2);
    Execucao reter = executar(Map.of("SPRING_FLYWAY_URL", "jdbc:postgresql://x/y"), "reter");
    assertThat(reter.codigo()).isEqualTo(2);
    assertThat(reter.erro()).startsWith("reter needs SPRING_DATASOURCE_URL");
  }

  @Test
  void asOpcoesDoReplayChegamTipadas() {
    CommandLine linha = LinhaDeComando.criar(Map.of(), SEM_SERVICO);
    linha.parseArgs(
        "replay",
        "--topico=t",
        "--particao=3",
        "--particao",
        "5",
        "--de-offset=10",
        "--ate-instante=2026-11-30T10:00:00Z");

    ComandoDeReplay replay = linha.getSubcommands().get("replay").getCommand();

    assertThat(replay.opcoes())
        .isEqualTo(
            new OpcoesDeReplay(
                "t", List.of(3, 5), 10L, null, null, Instant.parse("2026-11-30T10:00:00Z")));
  }

  @Test
  void semOpcoesOReplayLeTudoDoTopicoDoServico() {
    CommandLine linha = LinhaDeComando.criar(Map.of(), SEM_SERVICO);
    linha.parseArgs("replay");

    ComandoDeReplay replay = linha.getSubcommands().get("replay").getCommand();

    assertThat(replay.opcoes())
        .isEqualTo(new OpcoesDeReplay(null, List.of(), null, null, null, null));
  }

  @Test
  void umComandoQueFalhaSaiComUmEDizPorque() {
    Execucao execucao =
        executar(
            Map.of(),
            () -> {
              throw new IllegalStateException("Kafka did not answer for ana@example.com");
            },
            "replay");

    assertThat(execucao.codigo()).isEqualTo(CommandLine.ExitCode.SOFTWARE).isEqualTo(1);
    assertThat(execucao.erro())
        .startsWith(
            "replay failed: java.lang.IllegalStateException: Kafka did not answer for"
                + " a***@example.com")
        .doesNotContain("ana@");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "                                      | false",
        "--server.port=8082                    | false",
        "--spring.flyway.enabled=false --x=y   | false",
        "replay --particao=1                   | true",
        "migrar                                | true",
        "--help                                | true",
        "-h                                    | true",
        "replya                                | true",
      })
  void oServicoTomaSoArgumentosDoSpringBoot(String argumentos, boolean comando) {
    String[] lista = argumentos == null ? new String[0] : argumentos.strip().split(" +");

    assertThat(LinhaDeComando.pedeUmComando(lista)).isEqualTo(comando);
  }

  private static Execucao executar(Map<String, String> ambiente, String... argumentos) {
    return executar(ambiente, SEM_SERVICO, argumentos);
  }

  private static Execucao executar(
      Map<String, String> ambiente, ServicoSemOuvinte servico, String... argumentos) {
    var saida = new StringWriter();
    var erro = new StringWriter();
    int codigo =
        LinhaDeComando.executar(
            argumentos, ambiente, servico, new PrintWriter(saida), new PrintWriter(erro));
    return new Execucao(codigo, saida.toString(), erro.toString());
  }
}
