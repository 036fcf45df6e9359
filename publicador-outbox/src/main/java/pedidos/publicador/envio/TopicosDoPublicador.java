package pedidos.publicador.envio;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.publicador.configuracao.PublicadorProperties;

/**
 * The one owner of the three topics (README, "Kafka topics"): before each start of the engine it
 * creates those missing, adds partitions up to the configured count, and sets every setting of
 * {@link PublicadorProperties.Topicos} on them, correcting whatever drifted (a topic made by hand,
 * auto-created with the broker's defaults, or changed since). The aplicador only checks them.
 *
 * <p>Why before each start rather than once: with Kafka down at start-up the context must still
 * start (and the relay wait), and a broker that lost its data comes back without the topics.
 * Kafka's admin API is used directly, with every wait bounded by {@code publicador.topicos.espera}:
 * the relay only borrows the connection settings of Spring's {@link KafkaAdmin}.
 *
 * <p>What it cannot change it reports: partitions are never removed (a topic with more keeps them),
 * and an existing topic's replication factor is changed by a partition reassignment, not by a
 * setting; it is logged as a warning, and {@code min.insync.replicas} is kept within it.
 */
@Component
public class TopicosDoPublicador {

  private static final Logger log = LoggerFactory.getLogger(TopicosDoPublicador.class);

  /**
   * The longest segment: Kafka deletes whole segments, once the newest record of one is older than
   * the retention, so a record lives up to the retention plus the segment's age (its default is 7
   * days). A day bounds how long a customer's email outlives the retention.
   */
  static final Duration SEGMENTO_MAXIMO = Duration.ofDays(1);

  /** Below this many replicas a broker's loss can lose acknowledged records. */
  static final int REPLICAS_EM_PRODUCAO = 3;

  private final KafkaAdmin admin;
  private final PublicadorProperties.Topicos topicos;

  TopicosDoPublicador(KafkaAdmin admin, PublicadorProperties propriedades) {
    this.admin = admin;
    this.topicos = propriedades.topicos();
  }

  /** Throws when Kafka cannot be reached in time or refuses. */
  public void garantir() {
    Duration espera = topicos.espera();
    Map<String, Object> configuracao = new HashMap<>(admin.getConfigurationProperties());
    configuracao.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) espera.toMillis());
    configuracao.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) espera.toMillis());
    Admin cliente = Admin.create(configuracao);
    try {
      avisarSePoucasReplicas(cliente, espera);
      Map<String, Optional<TopicDescription>> existentes = new HashMap<>();
      for (String nome : List.of(topicos.eventos(), topicos.efeitos(), topicos.eventosDlt())) {
        existentes.put(
            nome,
            descrever(cliente.describeTopics(List.of(nome)).topicNameValues().get(nome), espera));
      }
      int particoesDosEventos =
          Math.max(topicos.particoes(), particoes(existentes.get(topicos.eventos())));
      // The dead-letter topic first: a dead letter goes to the partition number its record came
      // from, so it must never have fewer partitions than loja.eventos, not even for a moment.
      List<Desejado> desejados =
          List.of(
              new Desejado(
                  topicos.eventosDlt(),
                  Math.max(particoesDosEventos, particoes(existentes.get(topicos.eventosDlt()))),
                  configuracoes(
                      topicos.retencaoDoDescarte(),
                      EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE)),
              new Desejado(
                  topicos.eventos(),
                  particoesDosEventos,
                  configuracoes(topicos.retencaoDosEventos(), EnvelopeDeEntrada.BYTES_DA_MENSAGEM)),
              new Desejado(
                  topicos.efeitos(),
                  topicos.particoes(),
                  configuracoes(
                      topicos.retencaoDosEfeitos(), EnvelopeDeEntrada.BYTES_DA_MENSAGEM)));
      for (Desejado desejado : desejados) {
        Optional<TopicDescription> existente = existentes.get(desejado.nome());
        if (existente.isEmpty()) {
          criar(cliente, desejado, espera);
        } else {
          crescer(cliente, desejado, existente.get(), espera);
          corrigir(cliente, desejado, existente.get(), espera);
        }
      }
    } finally {
      cliente.close(Duration.ofSeconds(1));
    }
  }

  /**
   * Every setting the relay owns, as the topic should have it. {@code min.insync.replicas} is
   * written here as configured and kept within an existing topic's replication factor by {@link
   * #corrigir}.
   */
  private Map<String, String> configuracoes(Duration retencao, int bytesDaMensagem) {
    Map<String, String> configuracoes = new LinkedHashMap<>();
    configuracoes.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE);
    configuracoes.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(retencao.toMillis()));
    // A size limit (the broker's log.retention.bytes, if an operator set one) would delete records
    // inside the replay window: the window is in time only.
    configuracoes.put(TopicConfig.RETENTION_BYTES_CONFIG, "-1");
    configuracoes.put(
        TopicConfig.SEGMENT_MS_CONFIG,
        Long.toString(Math.min(retencao.toMillis(), SEGMENTO_MAXIMO.toMillis())));
    configuracoes.put(
        TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Short.toString(topicos.replicasEmSincronia()));
    // A replica that was not in sync must never become leader: it would drop acknowledged records.
    configuracoes.put(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false");
    configuracoes.put(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(bytesDaMensagem));
    return configuracoes;
  }

  private void criar(Admin cliente, Desejado desejado, Duration espera) {
    NewTopic topico =
        new NewTopic(desejado.nome(), desejado.particoes(), topicos.replicas())
            .configs(desejado.configuracoes());
    try {
      esperar(cliente.createTopics(List.of(topico)).all(), espera);
      log.info(
          "Created topic {} with {} partitions, {} replica(s), {}",
          desejado.nome(),
          desejado.particoes(),
          topicos.replicas(),
          desejado.configuracoes());
    } catch (IllegalStateException e) {
      if (e.getCause() instanceof TopicExistsException) {
        return; // another instance created it first; the next start checks its settings
      }
      if (e.getCause() instanceof InvalidReplicationFactorException) {
        throw new IllegalStateException(
            "Kafka refused to create "
                + desejado.nome()
                + " with "
                + topicos.replicas()
                + " replica(s): "
                + e.getCause().getMessage()
                + " Set publicador.topicos.replicas (PUBLICADOR_TOPICOS_REPLICAS) to at most the"
                + " number of brokers, and publicador.topicos.replicas-em-sincronia"
                + " (PUBLICADOR_TOPICOS_REPLICASEMSINCRONIA) to at most that: 1 and 1 for a single"
                + " broker (the local run, compose), 3 and 2 in production",
            e.getCause());
      }
      throw e;
    }
  }

  private static void crescer(
      Admin cliente, Desejado desejado, TopicDescription existente, Duration espera) {
    int atuais = existente.partitions().size();
    if (atuais >= desejado.particoes()) {
      return;
    }
    log.warn(
        "Topic {} has {} partitions, adding up to {}",
        desejado.nome(),
        atuais,
        desejado.particoes());
    esperar(
        cliente
            .createPartitions(
                Map.of(desejado.nome(), NewPartitions.increaseTo(desejado.particoes())))
            .all(),
        espera);
  }

  /**
   * Sets every setting that differs from the wanted one. {@code max.message.bytes} is only raised:
   * a larger limit is harmless, and an operator may have raised it for a reason.
   */
  private void corrigir(
      Admin cliente, Desejado desejado, TopicDescription existente, Duration espera) {
    int replicasAtuais = existente.partitions().get(0).replicas().size();
    Map<String, String> queridas = new LinkedHashMap<>(desejado.configuracoes());
    if (replicasAtuais != topicos.replicas()) {
      log.warn(
          "Topic {} has {} replica(s) per partition, publicador.topicos.replicas is {}: the relay"
              + " does not change an existing topic's replication factor; reassign its partitions"
              + " (kafka-reassign-partitions.sh) to have {}",
          desejado.nome(),
          replicasAtuais,
          topicos.replicas(),
          topicos.replicas());
    }
    if (replicasAtuais < topicos.replicasEmSincronia()) {
      // More than it has would make every write with acks=all fail.
      log.warn(
          "Topic {}: min.insync.replicas kept at {}, its replication factor, below the configured {}",
          desejado.nome(),
          replicasAtuais,
          topicos.replicasEmSincronia());
      queridas.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(replicasAtuais));
    }
    ConfigResource recurso = new ConfigResource(ConfigResource.Type.TOPIC, desejado.nome());
    Config atual = esperar(cliente.describeConfigs(List.of(recurso)).values().get(recurso), espera);
    List<AlterConfigOp> mudancas = new ArrayList<>();
    List<String> descricao = new ArrayList<>();
    queridas.forEach(
        (nome, valor) -> {
          ConfigEntry entrada = atual.get(nome);
          String vigente = entrada == null ? null : entrada.value();
          boolean certo =
              nome.equals(TopicConfig.MAX_MESSAGE_BYTES_CONFIG)
                  ? vigente != null && Long.parseLong(vigente) >= Long.parseLong(valor)
                  : valor.equals(vigente);
          if (!certo) {
            mudancas.add(new AlterConfigOp(new ConfigEntry(nome, valor), AlterConfigOp.OpType.SET));
            descricao.add(nome + " " + vigente + " -> " + valor);
          }
        });
    if (mudancas.isEmpty()) {
      return;
    }
    log.warn(
        "Topic {} differs from the relay's settings, correcting: {}", desejado.nome(), descricao);
    esperar(cliente.incrementalAlterConfigs(Map.of(recurso, mudancas)).all(), espera);
  }

  /**
   * A cluster of three brokers or more with topics of fewer replicas is most likely a production
   * deployment that kept the single-broker default.
   */
  private void avisarSePoucasReplicas(Admin cliente, Duration espera) {
    Collection<?> corretores = esperar(cliente.describeCluster().nodes(), espera);
    if (corretores.size() >= REPLICAS_EM_PRODUCAO && topicos.replicas() < REPLICAS_EM_PRODUCAO) {
      log.warn(
          "The cluster has {} brokers and topics are created with {} replica(s): a broker's loss"
              + " can lose acknowledged records. Set publicador.topicos.replicas=3 and"
              + " publicador.topicos.replicas-em-sincronia=2",
          corretores.size(),
          topicos.replicas());
    }
  }

  private static int particoes(Optional<TopicDescription> descricao) {
    return descricao.map(d -> d.partitions().size()).orElse(0);
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

  /** A topic as the relay wants it. */
  private record Desejado(String nome, int particoes, Map<String, String> configuracoes) {}
}
