package pedidos.aplicador.ouvinte;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.kafka.core.KafkaAdmin;
import pedidos.aplicador.AplicadorApplication;
import pedidos.aplicador.ArgumentosDoServico;
import pedidos.aplicador.TopicosDeTeste;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.infra.InfraLocal;
import pedidos.infra.UsuarioDoKafka;
import pedidos.testes.InfraDeTeste;

/**
 * The applier only checks the relay's topics, on the real broker: it refuses to start, saying what
 * differs and what to do, on what it cannot live with; waits for the relay while services start in
 * any order; starts with a warning on what it can live with, and without a check when Kafka does
 * not answer.
 */
@ExtendWith(OutputCaptureExtension.class)
class VerificacaoDosTopicosTest {

  private static final Duration JANELA = TopicosDeTeste.RETENCAO;

  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();
  private final String sufixo = UUID.randomUUID().toString().substring(0, 8);
  private final String eventos = "eventos-" + sufixo;
  private final String descarte = "dlt-" + sufixo;

  @AfterEach
  void apagar() {
    try (Admin admin = Admin.create(kafka)) {
      for (String topico : List.of(eventos, descarte)) {
        try {
          admin.deleteTopics(List.of(topico)).all().get();
        } catch (Exception e) {
          // Never created: nothing to clean.
        }
      }
    }
  }

  @Test
  void topicoAusenteRecusaDizendoOQueFazer() {
    assertThatThrownBy(() -> verificacao(kafka, "1s").verificar())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Refusing to start")
        .hasMessageContaining("The relay (publicador-outbox) owns the topics")
        .hasMessageContaining(eventos + " does not exist: start the relay (publicador-outbox)")
        .hasMessageContaining(descarte + " does not exist");
  }

  @Test
  void particoesDeMenosRecusam() {
    TopicosDeTeste.criar(eventos, 3, JANELA, EnvelopeDeEntrada.BYTES_DA_MENSAGEM);
    TopicosDeTeste.criar(descarte, 3, JANELA, EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE);

    assertThatThrownBy(() -> verificacao(kafka, "1s").verificar())
        .hasMessageContaining(
            eventos + " has 3 partition(s), fewer than the 12 this aplicador needs")
        .hasMessageContaining(
            "set publicador.topicos.particoes to at least 12 and restart the relay");
  }

  @Test
  void retencaoMaisCurtaQueAJanelaDeReplayRecusa() {
    TopicosDeTeste.criar(eventos, 12, Duration.ofDays(7), EnvelopeDeEntrada.BYTES_DA_MENSAGEM);
    TopicosDeTeste.criar(descarte, 12, JANELA, EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE);

    assertThatThrownBy(() -> verificacao(kafka, "1s").verificar())
        .hasMessageContaining(
            eventos
                + " keeps records for 7 day(s) (retention.ms=604800000), less than the replay"
                + " window this aplicador promises (aplicador.topicos.janela-de-replay=14 day(s))")
        .hasMessageContaining("publicador.topicos.retencao-dos-eventos");
  }

  @Test
  void descarteComMenosParticoesQueOsEventosRecusa() {
    TopicosDeTeste.criar(eventos, 12, JANELA, EnvelopeDeEntrada.BYTES_DA_MENSAGEM);
    // The broker's default size, too: both are refused at once.
    TopicosDeTeste.criar(descarte, 6, JANELA, 1 << 20);

    assertThatThrownBy(() -> verificacao(kafka, "1s").verificar())
        .hasMessageContaining(descarte + " has 6 partition(s), fewer than " + eventos + "'s 12")
        .hasMessageContaining(descarte + " takes records up to 1048576 bytes");
  }

  @Test
  void diferencasToleraveisSoAvisam(CapturedOutput saida) {
    TopicosDeTeste.criar(eventos, 16, Duration.ofDays(30), EnvelopeDeEntrada.BYTES_DA_MENSAGEM);
    TopicosDeTeste.criar(descarte, 16, JANELA, EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE);

    verificacao(kafka, "1s").verificar();

    assertThat(saida.getOut())
        .contains(
            "Topic check: " + eventos + " has 16 partitions, more than aplicador.topicos.particoes")
        .contains(
            "Topic check: "
                + eventos
                + " keeps records for 30 day(s), longer than the replay window (14 day(s))")
        .contains("Topics " + eventos + " and " + descarte + " checked: fit for this aplicador");
  }

  /** Services start in any order: an applier up before the relay waits for its topics. */
  @Test
  void esperaORelayCriarOsTopicos(CapturedOutput saida) {
    CompletableFuture<Void> partida =
        CompletableFuture.runAsync(() -> verificacao(kafka, "60s").verificar());
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> saida.getOut().contains("Waiting up to PT1M for the relay"));
    assertThat(partida).as("still waiting").isNotDone();

    TopicosDeTeste.criar(eventos, 12, JANELA, EnvelopeDeEntrada.BYTES_DA_MENSAGEM);
    TopicosDeTeste.criar(descarte, 12, JANELA, EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE);

    await().atMost(Duration.ofSeconds(20)).until(partida::isDone);
    partida.join();
    assertThat(saida.getOut()).contains(eventos + " does not exist: start the relay");
  }

  @Test
  void kafkaSemRespostaNaoImpedeOInicio(CapturedOutput saida) throws Exception {
    int porta;
    try (ServerSocket livre = new ServerSocket(0)) {
      porta = livre.getLocalPort();
    }
    var admin = new KafkaAdmin(Map.of("bootstrap.servers", "127.0.0.1:" + porta));

    new VerificacaoDosTopicos(admin, propriedades("1s"), true, Duration.ofSeconds(2)).verificar();

    assertThat(saida.getOut())
        .contains("Kafka did not answer within PT2S: starting without checking " + eventos);
  }

  /** Its own Kafka user describes the topics and their settings, and may do no more (ACLs). */
  @Test
  void verificaComOProprioUsuarioDoAplicador() {
    TopicosDeTeste.comoORelay();
    Map<String, Object> comoAplicador =
        InfraLocal.compartilhada().kafka().cliente(UsuarioDoKafka.APLICADOR);
    var propriedades =
        vincular(Map.of("aplicador.topicos.espera", "1s", "aplicador.topicos.intervalo", "100ms"));

    new VerificacaoDosTopicos(
            new KafkaAdmin(comoAplicador), propriedades, true, Duration.ofSeconds(10))
        .verificar();
  }

  /** The check runs in the service's start: a refusal stops it, and the message says why. */
  @Test
  void oServicoNaoIniciaSemSeusTopicos() {
    InfraDeTeste.prepararUmaVez(InfraLocal.compartilhada().postgres());
    String[] argumentos =
        ArgumentosDoServico.comoNumaImplantacao(
            Map.of(
                "aplicador.tarefas-periodicas", "false",
                "aplicador.topico", eventos,
                "aplicador.topico-de-descarte", descarte,
                "aplicador.topicos.espera", "1s",
                "aplicador.topicos.intervalo", "200ms"));
    // Left to Spring Boot, a context that fails to start would shut logging down for the JVM's
    // other contexts.
    System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
    try {
      assertThatThrownBy(
              () ->
                  new SpringApplicationBuilder(AplicadorApplication.class)
                      .web(WebApplicationType.NONE)
                      .run(argumentos)
                      .close())
          .rootCause()
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Refusing to start")
          .hasMessageContaining(eventos + " does not exist");
    } finally {
      System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
    }
  }

  private VerificacaoDosTopicos verificacao(Map<String, Object> cliente, String espera) {
    return new VerificacaoDosTopicos(
        new KafkaAdmin(cliente), propriedades(espera), true, Duration.ofSeconds(10));
  }

  private AplicadorProperties propriedades(String espera) {
    return vincular(
        Map.of(
            "aplicador.topico", eventos,
            "aplicador.topico-de-descarte", descarte,
            "aplicador.topicos.espera", espera,
            "aplicador.topicos.intervalo", "200ms"));
  }

  private static AplicadorProperties vincular(Map<String, String> valores) {
    return new Binder(new MapConfigurationPropertySource(valores))
        .bindOrCreate("aplicador", AplicadorProperties.class);
  }
}
