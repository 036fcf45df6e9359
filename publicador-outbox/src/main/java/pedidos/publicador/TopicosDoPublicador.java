package pedidos.publicador;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;
import pedidos.dominio.EnvelopeDeEntrada;

/**
 * Creates the topics, or adds partitions up to the configured count and raises their {@code
 * max.message.bytes} to the input envelope's record size, before each start of the engine rather
 * than only when the context starts.
 *
 * <p>Why: with Kafka down at start-up the context must still start (and the relay wait), and a
 * producer writing to a missing topic would have the broker auto-create it with its default
 * partition count, which changes which partition each order lands on. Kafka's admin API is used
 * directly, with every wait bounded by {@code publicador.topicos.espera}: the relay only borrows
 * the connection settings of Spring's {@link KafkaAdmin}.
 */
@Component
class TopicosDoPublicador {

  private static final Logger log = LoggerFactory.getLogger(TopicosDoPublicador.class);
  private static final String BYTES_DA_MENSAGEM =
      Integer.toString(EnvelopeDeEntrada.BYTES_DA_MENSAGEM);

  private final KafkaAdmin admin;
  private final PublicadorProperties.Topicos topicos;

  TopicosDoPublicador(KafkaAdmin admin, PublicadorProperties propriedades) {
    this.admin = admin;
    this.topicos = propriedades.topicos();
  }

  /** Throws when Kafka cannot be reached in time or refuses. */
  void garantir() {
    Duration espera = topicos.espera();
    Map<String, Object> configuracao = new HashMap<>(admin.getConfigurationProperties());
    configuracao.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) espera.toMillis());
    configuracao.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) espera.toMillis());
    Admin cliente = Admin.create(configuracao);
    try {
      for (NewTopic desejado : desejados()) {
        Optional<TopicDescription> existente =
            descrever(
                cliente
                    .describeTopics(List.of(desejado.name()))
                    .topicNameValues()
                    .get(desejado.name()),
                espera);
        if (existente.isEmpty()) {
          criar(cliente, desejado, espera);
          continue;
        }
        garantirTamanho(cliente, desejado.name(), espera);
        if (existente.get().partitions().size() < desejado.numPartitions()) {
          log.info(
              "Topic {} has {} partitions, adding up to {}",
              desejado.name(),
              existente.get().partitions().size(),
              desejado.numPartitions());
          esperar(
              cliente
                  .createPartitions(
                      Map.of(desejado.name(), NewPartitions.increaseTo(desejado.numPartitions())))
                  .all(),
              espera);
        }
      }
    } finally {
      cliente.close(Duration.ofSeconds(1));
    }
  }

  private List<NewTopic> desejados() {
    // The dead-letter topic gets as many partitions as its source: the default recoverer writes a
    // failed record to the partition number it came from.
    return List.of(
        topico(topicos.eventos()), topico(topicos.efeitos()), topico(topicos.eventosDlt()));
  }

  private NewTopic topico(String nome) {
    return new NewTopic(
            nome, Optional.of(topicos.particoes()), Optional.ofNullable(topicos.replicas()))
        .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, BYTES_DA_MENSAGEM));
  }

  /**
   * A topic made before this setting (or by hand) takes the broker's default, about 1 MB, and the
   * broker would refuse events the receptor accepted: raise it, never lower it.
   */
  private static void garantirTamanho(Admin cliente, String nome, Duration espera) {
    ConfigResource recurso = new ConfigResource(ConfigResource.Type.TOPIC, nome);
    Config atual = esperar(cliente.describeConfigs(List.of(recurso)).values().get(recurso), espera);
    ConfigEntry tamanho = atual.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
    if (tamanho != null
        && tamanho.value() != null
        && Long.parseLong(tamanho.value()) >= EnvelopeDeEntrada.BYTES_DA_MENSAGEM) {
      return;
    }
    log.info(
        "Topic {} takes records up to {} bytes, raising it to {}",
        nome,
        tamanho == null ? null : tamanho.value(),
        BYTES_DA_MENSAGEM);
    esperar(
        cliente
            .incrementalAlterConfigs(
                Map.of(
                    recurso,
                    List.of(
                        new AlterConfigOp(
                            new ConfigEntry(
                                TopicConfig.MAX_MESSAGE_BYTES_CONFIG, BYTES_DA_MENSAGEM),
                            AlterConfigOp.OpType.SET))))
            .all(),
        espera);
  }

  private static <T> T esperar(KafkaFuture<T> operacao, Duration espera) {
    try {
      return operacao.get(espera.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Kafka refused a topic operation", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not answer within " + espera, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking the relay's topics", e);
    }
  }

  private static Optional<TopicDescription> descrever(
      KafkaFuture<TopicDescription> descricao, Duration espera) {
    try {
      return Optional.of(descricao.get(espera.toMillis(), TimeUnit.MILLISECONDS));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return Optional.empty();
      }
      throw new IllegalStateException("could not describe the relay's topics", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not answer within " + espera, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking the relay's topics", e);
    }
  }

  private static void criar(Admin cliente, NewTopic topico, Duration espera) {
    try {
      esperar(cliente.createTopics(List.of(topico)).all(), espera);
      log.info("Created topic {} with {} partitions", topico.name(), topico.numPartitions());
    } catch (IllegalStateException e) {
      // Another instance created it first: fine.
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e;
      }
    }
  }
}
