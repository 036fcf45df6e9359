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
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

/**
 * Creates the topics, or adds partitions up to the configured count, before each start of the
 * engine rather than only when the context starts.
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
        } else if (existente.get().partitions().size() < desejado.numPartitions()) {
          log.info(
              "Topic {} has {} partitions, adding up to {}",
              desejado.name(),
              existente.get().partitions().size(),
              desejado.numPartitions());
          aguardar(
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
        nome, Optional.of(topicos.particoes()), Optional.ofNullable(topicos.replicas()));
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
      aguardar(cliente.createTopics(List.of(topico)).all(), espera);
      log.info("Created topic {} with {} partitions", topico.name(), topico.numPartitions());
    } catch (IllegalStateException e) {
      // Another instance created it first: fine.
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e;
      }
    }
  }

  private static void aguardar(KafkaFuture<Void> operacao, Duration espera) {
    try {
      operacao.get(espera.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Kafka refused a topic operation", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not answer within " + espera, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating the relay's topics", e);
    }
  }
}
