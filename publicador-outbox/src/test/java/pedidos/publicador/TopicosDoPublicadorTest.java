package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.kafka.core.KafkaAdmin;
import pedidos.dominio.EnvelopeDeEntrada;
import pedidos.infra.InfraDeTeste;

/** The relay's topics take every record of the input envelope, whoever created them first. */
class TopicosDoPublicadorTest {

  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();

  @Test
  void topicoCriadoAntesSemOTamanhoGanhaOTamanhoDoEnvelope() throws Exception {
    String sufixo = UUID.randomUUID().toString().substring(0, 8);
    String eventos = "eventos-" + sufixo;
    String efeitos = "efeitos-" + sufixo;
    String dlt = "dlt-" + sufixo;
    try (Admin admin = Admin.create(kafka)) {
      // Made by hand, or by an older relay: the broker's default limit, about 1 MB.
      admin
          .createTopics(List.of(new NewTopic(eventos, Optional.of(12), Optional.empty())))
          .all()
          .get();
      // The new topic's metadata reaches the broker's config view a moment later.
      long antes =
          await()
              .atMost(Duration.ofSeconds(10))
              .ignoreExceptions()
              .until(() -> tamanho(admin, eventos), t -> t > 0);
      assertThat(antes).isLessThan(EnvelopeDeEntrada.BYTES_DA_MENSAGEM);

      PublicadorProperties propriedades =
          new Binder(
                  new MapConfigurationPropertySource(
                      Map.of(
                          "publicador.topicos.eventos", eventos,
                          "publicador.topicos.efeitos", efeitos,
                          "publicador.topicos.eventos-dlt", dlt)))
              .bindOrCreate("publicador", PublicadorProperties.class);
      new TopicosDoPublicador(new KafkaAdmin(kafka), propriedades).garantir();

      for (String topico : List.of(eventos, efeitos, dlt)) {
        await()
            .atMost(Duration.ofSeconds(10))
            .ignoreExceptions()
            .untilAsserted(
                () ->
                    assertThat(tamanho(admin, topico))
                        .as(topico)
                        .isEqualTo(EnvelopeDeEntrada.BYTES_DA_MENSAGEM));
      }
    }
  }

  private static long tamanho(Admin admin, String topico) throws Exception {
    ConfigResource recurso = new ConfigResource(ConfigResource.Type.TOPIC, topico);
    return Long.parseLong(
        admin
            .describeConfigs(List.of(recurso))
            .all()
            .get()
            .get(recurso)
            .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG)
            .value());
  }
}
