package pedidos.publicador.envio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.kafka.core.KafkaAdmin;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.testes.InfraDeTeste;

/**
 * The relay owns the topics on the real broker: it creates them with every setting it is given and
 * corrects whatever drifted, never removing partitions, and says what to do when the broker
 * refuses.
 */
class TopicosDoPublicadorTest {

  private static final long DIA = Duration.ofDays(1).toMillis();

  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();
  private final Admin admin = Admin.create(kafka);
  private final String sufixo = UUID.randomUUID().toString().substring(0, 8);
  private final String eventos = "eventos-" + sufixo;
  private final String efeitos = "efeitos-" + sufixo;
  private final String dlt = "dlt-" + sufixo;

  @AfterEach
  void fechar() {
    for (String topico : List.of(eventos, efeitos, dlt)) {
      try {
        admin.deleteTopics(List.of(topico)).all().get();
      } catch (Exception e) {
        // Never created (the test of a refusal): nothing to clean.
      }
    }
    admin.close();
  }

  @Test
  void criaOsTopicosComTodasAsConfiguracoes() throws Exception {
    topicos(Map.of("publicador.topicos.particoes", "4")).garantir();

    for (String topico : List.of(eventos, efeitos, dlt)) {
      TopicDescription descricao = descrever(topico);
      assertThat(descricao.partitions()).as(topico).hasSize(4);
      assertThat(descricao.partitions().get(0).replicas()).as(topico).hasSize(1);
      Config configuracao = configuracao(topico);
      assertThat(valor(configuracao, TopicConfig.CLEANUP_POLICY_CONFIG)).isEqualTo("delete");
      assertThat(valor(configuracao, TopicConfig.RETENTION_BYTES_CONFIG)).isEqualTo("-1");
      assertThat(valor(configuracao, TopicConfig.SEGMENT_MS_CONFIG))
          .as("a record outlives the retention by at most a day")
          .isEqualTo(Long.toString(DIA));
      assertThat(valor(configuracao, TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG)).isEqualTo("1");
      assertThat(valor(configuracao, TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG))
          .isEqualTo("false");
    }
    assertThat(valor(configuracao(eventos), TopicConfig.RETENTION_MS_CONFIG))
        .as("the replay window")
        .isEqualTo(Long.toString(14 * DIA));
    assertThat(valor(configuracao(dlt), TopicConfig.RETENTION_MS_CONFIG))
        .isEqualTo(Long.toString(14 * DIA));
    assertThat(valor(configuracao(efeitos), TopicConfig.RETENTION_MS_CONFIG))
        .isEqualTo(Long.toString(30 * DIA));
    assertThat(valor(configuracao(eventos), TopicConfig.MAX_MESSAGE_BYTES_CONFIG))
        .isEqualTo(Integer.toString(EnvelopeDeEntrada.BYTES_DA_MENSAGEM));
    assertThat(valor(configuracao(efeitos), TopicConfig.MAX_MESSAGE_BYTES_CONFIG))
        .isEqualTo(Integer.toString(EnvelopeDeEntrada.BYTES_DA_MENSAGEM));
    assertThat(valor(configuracao(dlt), TopicConfig.MAX_MESSAGE_BYTES_CONFIG))
        .as("a dead letter carries its record and the failure's headers")
        .isEqualTo(Integer.toString(EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE));
  }

  @Test
  void corrigeOQueDerivouSemNuncaTirarParticoes() throws Exception {
    // Made by hand, by an older relay or auto-created: the broker's defaults, and worse.
    admin
        .createTopics(
            List.of(
                new NewTopic(eventos, Optional.of(6), Optional.empty())
                    .configs(
                        Map.of(
                            TopicConfig.CLEANUP_POLICY_CONFIG, "compact",
                            TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "true",
                            TopicConfig.RETENTION_BYTES_CONFIG, "1048576")),
                new NewTopic(dlt, Optional.of(1), Optional.empty())
                    .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, "3600000")),
                new NewTopic(efeitos, Optional.of(4), Optional.empty())
                    .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "10485760"))))
        .all()
        .get();
    // A new topic's settings reach the broker's view of them a moment later.
    await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .until(
            () -> valor(configuracao(eventos), TopicConfig.CLEANUP_POLICY_CONFIG),
            "compact"::equals);
    assertThat(valor(configuracao(eventos), TopicConfig.RETENTION_MS_CONFIG))
        .as("the broker's default: 7 days")
        .isEqualTo(Long.toString(7 * DIA));

    topicos(Map.of("publicador.topicos.particoes", "4")).garantir();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              Config corrigida = configuracao(eventos);
              assertThat(valor(corrigida, TopicConfig.CLEANUP_POLICY_CONFIG)).isEqualTo("delete");
              assertThat(valor(corrigida, TopicConfig.RETENTION_MS_CONFIG))
                  .isEqualTo(Long.toString(14 * DIA));
              assertThat(valor(corrigida, TopicConfig.RETENTION_BYTES_CONFIG)).isEqualTo("-1");
              assertThat(valor(corrigida, TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG))
                  .isEqualTo("false");
              assertThat(valor(corrigida, TopicConfig.MAX_MESSAGE_BYTES_CONFIG))
                  .isEqualTo(Integer.toString(EnvelopeDeEntrada.BYTES_DA_MENSAGEM));
              assertThat(valor(configuracao(dlt), TopicConfig.RETENTION_MS_CONFIG))
                  .isEqualTo(Long.toString(14 * DIA));
              assertThat(valor(configuracao(efeitos), TopicConfig.MAX_MESSAGE_BYTES_CONFIG))
                  .as("a larger limit is kept: it only ever rises")
                  .isEqualTo("10485760");
            });
    assertThat(descrever(eventos).partitions()).as("never fewer").hasSize(6);
    assertThat(descrever(dlt).partitions())
        .as("as many as loja.eventos: a dead letter keeps its partition number")
        .hasSize(6);
    assertThat(descrever(efeitos).partitions()).hasSize(4);
  }

  @Test
  void replicasDeMaisParaOClusterRecusamDizendoOQueFazer() {
    var relay =
        topicos(
            Map.of(
                "publicador.topicos.replicas", "3",
                "publicador.topicos.replicas-em-sincronia", "2"));

    assertThatThrownBy(relay::garantir)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("with 3 replica(s)")
        .hasMessageContaining("PUBLICADOR_TOPICOS_REPLICAS")
        .hasMessageContaining("1 and 1 for a single broker");
  }

  @Test
  void minimoEmSincroniaNuncaPassaDasReplicasQueOTopicoTem() throws Exception {
    admin
        .createTopics(
            List.of(
                new NewTopic(eventos, Optional.of(1), Optional.empty()),
                new NewTopic(efeitos, Optional.of(1), Optional.empty()),
                new NewTopic(dlt, Optional.of(1), Optional.empty())))
        .all()
        .get();

    topicos(
            Map.of(
                "publicador.topicos.particoes", "1",
                "publicador.topicos.replicas", "3",
                "publicador.topicos.replicas-em-sincronia", "2"))
        .garantir();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              assertThat(valor(configuracao(eventos), TopicConfig.RETENTION_MS_CONFIG))
                  .as("the rest was corrected")
                  .isEqualTo(Long.toString(14 * DIA));
              assertThat(valor(configuracao(eventos), TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG))
                  .as("with one replica, 2 would refuse every write with acks=all")
                  .isEqualTo("1");
            });
  }

  private TopicosDoPublicador topicos(Map<String, String> outras) {
    Map<String, String> valores = new HashMap<>(outras);
    valores.put("publicador.topicos.eventos", eventos);
    valores.put("publicador.topicos.efeitos", efeitos);
    valores.put("publicador.topicos.eventos-dlt", dlt);
    PublicadorProperties propriedades =
        new Binder(new MapConfigurationPropertySource(valores))
            .bindOrCreate("publicador", PublicadorProperties.class);
    return new TopicosDoPublicador(new KafkaAdmin(kafka), propriedades);
  }

  private TopicDescription descrever(String topico) {
    return conhecido(() -> admin.describeTopics(List.of(topico)).allTopicNames().get().get(topico));
  }

  private Config configuracao(String topico) {
    ConfigResource recurso = new ConfigResource(ConfigResource.Type.TOPIC, topico);
    return conhecido(() -> admin.describeConfigs(List.of(recurso)).all().get().get(recurso));
  }

  /**
   * The broker serves a topic a moment after the controller created it (KRaft propagates metadata
   * asynchronously): a describe right after the creation may not find it yet, so ask until it does.
   * Any other failure fails the test at once.
   */
  private static <T> T conhecido(Callable<T> pergunta) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptionsMatching(
            e ->
                e instanceof ExecutionException
                    && e.getCause() instanceof UnknownTopicOrPartitionException)
        .until(pergunta, Objects::nonNull);
  }

  private static String valor(Config configuracao, String nome) {
    return configuracao.get(nome).value();
  }
}
