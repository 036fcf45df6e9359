package pedidos.aplicador;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.testes.InfraDeTeste;

/**
 * Topics on the shared broker as the relay makes them (its defaults: 12 partitions, the 14-day
 * replay window, the dead-letter topic sized for dead letters), for this module's tests, which play
 * the relay: in a deployment the relay owns them and the applier only checks them at start.
 */
public final class TopicosDeTeste {

  static final int PARTICOES = 12;
  public static final Duration RETENCAO = Duration.ofDays(14);

  private static boolean prontos;

  private TopicosDeTeste() {}

  /** {@code loja.eventos} and {@code loja.eventos.DLT}, once per JVM, before any context starts. */
  public static synchronized void comoORelay() {
    if (prontos) {
      return;
    }
    criar("loja.eventos", PARTICOES, RETENCAO, EnvelopeDeEntrada.BYTES_DA_MENSAGEM);
    criar("loja.eventos.DLT", PARTICOES, RETENCAO, EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE);
    prontos = true;
  }

  /** A topic of a test's own and its dead-letter topic, with the relay's settings. */
  public static void criarComDescarte(String topico, int particoes) {
    criar(topico, particoes, RETENCAO, EnvelopeDeEntrada.BYTES_DA_MENSAGEM);
    criar(topico + ".DLT", particoes, RETENCAO, EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE);
  }

  /**
   * Creates the topic, or gives one that exists (auto-created by a test's producer, say) the
   * partitions and settings.
   */
  public static void criar(String nome, int particoes, Duration retencao, int bytes) {
    Map<String, String> configuracoes =
        Map.of(
            TopicConfig.RETENTION_MS_CONFIG, Long.toString(retencao.toMillis()),
            TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(bytes));
    try (Admin admin = Admin.create(InfraDeTeste.clienteDoKafka())) {
      Optional<TopicDescription> existente = descrever(admin, nome);
      if (existente.isEmpty()) {
        admin
            .createTopics(
                List.of(
                    new NewTopic(nome, Optional.of(particoes), Optional.empty())
                        .configs(configuracoes)))
            .all()
            .get();
        // A new topic's settings reach the broker's view of them a moment later.
        ConfigResource recurso = new ConfigResource(ConfigResource.Type.TOPIC, nome);
        await()
            .atMost(Duration.ofSeconds(10))
            .ignoreExceptions()
            .until(
                () ->
                    admin
                        .describeConfigs(List.of(recurso))
                        .all()
                        .get()
                        .get(recurso)
                        .get(TopicConfig.RETENTION_MS_CONFIG)
                        .value(),
                Long.toString(retencao.toMillis())::equals);
        return;
      }
      if (existente.get().partitions().size() < particoes) {
        admin.createPartitions(Map.of(nome, NewPartitions.increaseTo(particoes))).all().get();
      }
      List<AlterConfigOp> operacoes = new ArrayList<>();
      configuracoes.forEach(
          (chave, valor) ->
              operacoes.add(
                  new AlterConfigOp(new ConfigEntry(chave, valor), AlterConfigOp.OpType.SET)));
      admin
          .incrementalAlterConfigs(
              Map.of(new ConfigResource(ConfigResource.Type.TOPIC, nome), operacoes))
          .all()
          .get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not prepare the topic " + nome, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Optional<TopicDescription> descrever(Admin admin, String nome)
      throws InterruptedException, ExecutionException {
    try {
      return Optional.of(admin.describeTopics(List.of(nome)).allTopicNames().get().get(nome));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
