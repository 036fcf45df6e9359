package pedidos.infra;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node KRaft broker (combined broker and controller) running inside this JVM.
 *
 * <p>Built on Kafka's own {@link KafkaClusterTestKit} rather than spring-kafka-test's wrapper: the
 * wrapper ignores fixed ports and writes {@code spring.kafka.bootstrap-servers} into system
 * properties, which would leak into every Spring context of the JVM.
 */
public final class KafkaLocal implements AutoCloseable {

  /** Environment variable the local launcher reads the port from. */
  public static final String VARIAVEL_DA_PORTA = "LOCAL_KAFKA_PORT";

  private static final Logger log = LoggerFactory.getLogger(KafkaLocal.class);
  // The test kit pre-binds its own listeners to random ports and ignores the port written in
  // "listeners" for them; a listener of another name is bound as configured.
  private static final String OUVINTE_FIXO = "LOCAL";

  private final KafkaClusterTestKit cluster;
  private final DiretorioTemporario diretorio;
  private final String bootstrapServers;
  private boolean fechado;

  private KafkaLocal(KafkaClusterTestKit cluster, DiretorioTemporario diretorio, int portaFixa) {
    this.cluster = cluster;
    this.diretorio = diretorio;
    this.bootstrapServers = portaFixa == 0 ? cluster.bootstrapServers() : "localhost:" + portaFixa;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A broker on a random port. */
  public static KafkaLocal iniciar() {
    return builder().iniciar();
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  public int porta() {
    return Integer.parseInt(bootstrapServers.substring(bootstrapServers.lastIndexOf(':') + 1));
  }

  @Override
  public synchronized void close() {
    if (fechado) {
      return;
    }
    fechado = true;
    try {
      cluster.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("Interrupted while stopping Kafka on {}", bootstrapServers);
    } catch (Exception e) {
      // The test kit rethrows any fault it recorded while running; the broker is down anyway.
      log.warn("Kafka on {} reported an error while stopping", bootstrapServers, e);
    } finally {
      diretorio.close();
    }
  }

  /** Options of the broker. */
  public static final class Builder {
    private int porta;
    private Duration esperaDeInicio = Duration.ofSeconds(60);
    private final Map<String, String> propriedades = new LinkedHashMap<>();

    private Builder() {
      // Single node: internal topics cannot have more replicas than brokers.
      propriedades.put("offsets.topic.replication.factor", "1");
      propriedades.put("offsets.topic.num.partitions", "1");
      propriedades.put("transaction.state.log.replication.factor", "1");
      propriedades.put("transaction.state.log.min.isr", "1");
      propriedades.put("transaction.state.log.num.partitions", "1");
      propriedades.put("share.coordinator.state.topic.replication.factor", "1");
      propriedades.put("share.coordinator.state.topic.min.isr", "1");
      // The default 3 s delay only helps groups of many members joining at once.
      propriedades.put("group.initial.rebalance.delay.ms", "0");
      propriedades.put("unstable.api.versions.enable", "false");
      propriedades.put("unstable.feature.versions.enable", "false");
    }

    /** 0 (the default) lets the broker pick a free port. */
    public Builder porta(int porta) {
      this.porta = Portas.validar(porta);
      return this;
    }

    public Builder esperaDeInicio(Duration espera) {
      this.esperaDeInicio = Objects.requireNonNull(espera);
      return this;
    }

    /** Any broker setting, e.g. {@code num.partitions}. */
    public Builder propriedade(String nome, String valor) {
      propriedades.put(nome, valor);
      return this;
    }

    public KafkaLocal iniciar() {
      if (porta != 0) {
        Portas.garantirLivre(porta, VARIAVEL_DA_PORTA);
      }
      long inicio = System.nanoTime();
      DiretorioTemporario diretorio = DiretorioTemporario.criar("kafka-", abandonado -> {});
      KafkaClusterTestKit cluster = null;
      try {
        cluster = construir(diretorio);
        iniciarComLimite(cluster);
        KafkaLocal kafka = new KafkaLocal(cluster, diretorio, porta);
        log.info(
            "Kafka ready on {} in {} ms",
            kafka.bootstrapServers(),
            Duration.ofNanos(System.nanoTime() - inicio).toMillis());
        return kafka;
      } catch (Exception e) {
        fecharEmSilencio(cluster);
        diretorio.close();
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw new IllegalStateException(
            "Kafka did not start" + (porta == 0 ? "" : " on port " + porta), e);
      }
    }

    private KafkaClusterTestKit construir(DiretorioTemporario diretorio) throws Exception {
      TestKitNodes nos =
          new TestKitNodes.Builder(versaoDeProducao())
              .setCombined(true)
              .setNumBrokerNodes(1)
              .setNumControllerNodes(1)
              .setBaseDirectory(diretorio.caminho().resolve("dados"))
              .build();
      KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nos);
      propriedades.forEach(builder::setConfigProp);
      if (porta != 0) {
        String interno = nos.brokerListenerName().value();
        String controlador = nos.controllerListenerName().value();
        builder.setConfigProp(
            "listeners",
            interno
                + "://localhost:0,"
                + controlador
                + "://localhost:0,"
                + OUVINTE_FIXO
                + "://localhost:"
                + porta);
        builder.setConfigProp(
            "listener.security.protocol.map",
            interno + ":PLAINTEXT," + controlador + ":PLAINTEXT," + OUVINTE_FIXO + ":PLAINTEXT");
      }
      return builder.build();
    }

    /**
     * The test kit defaults to the newest in-development metadata version and unstable APIs; the
     * services will meet a released broker, so this one behaves like one.
     */
    private static BootstrapMetadata versaoDeProducao() {
      MetadataVersion versao = MetadataVersion.latestProduction();
      Map<String, Short> recursos = new TreeMap<>();
      for (Feature recurso : Feature.PRODUCTION_FEATURES) {
        recursos.put(recurso.featureName(), recurso.defaultLevel(versao));
      }
      return BootstrapMetadata.fromVersions(versao, recursos, "infra-local");
    }

    private void iniciarComLimite(KafkaClusterTestKit cluster) throws Exception {
      cluster.format();
      // waitForReadyBrokers() has no timeout of its own: a broker that never registers would
      // hang the caller forever.
      CompletableFuture<Void> pronto =
          CompletableFuture.runAsync(
              () -> {
                try {
                  cluster.startup();
                  cluster.waitForReadyBrokers();
                } catch (ExecutionException e) {
                  throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException(e);
                }
              },
              tarefa -> new Thread(tarefa, "kafka-local-start").start());
      try {
        pronto.get(esperaDeInicio.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new IllegalStateException("broker not ready after " + esperaDeInicio, e);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof Exception causa ? causa : e;
      }
    }

    private static void fecharEmSilencio(KafkaClusterTestKit cluster) {
      if (cluster == null) {
        return;
      }
      try {
        cluster.close();
      } catch (Exception e) {
        log.debug("Error closing a Kafka that failed to start", e);
      }
    }
  }
}
