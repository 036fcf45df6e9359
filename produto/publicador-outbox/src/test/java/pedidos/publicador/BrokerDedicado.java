package pedidos.publicador;

import java.nio.file.Path;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A KRaft broker of a test's own, on a fixed port, so that it can be stopped and another one
 * started at the same address. Its data lives in the test's temporary directory.
 *
 * <p>Not infra-local's {@code KafkaLocal}: each {@code KafkaLocal} sweeps the shared scratch root
 * for abandoned directories, and probing a lock file of this JVM and closing it drops the JVM's own
 * lock on it (POSIX record locks belong to the process); another JVM then takes the live directory
 * for abandoned and deletes it. A second broker in the same JVM must stay out of that root.
 */
final class BrokerDedicado implements AutoCloseable {

  // The test kit binds its own listeners to random ports; a listener of another name is bound to
  // the port written for it.
  private static final String OUVINTE_FIXO = "FIXO";

  private final KafkaClusterTestKit cluster;
  private final int porta;
  private boolean fechado;

  private BrokerDedicado(KafkaClusterTestKit cluster, int porta) {
    this.cluster = cluster;
    this.porta = porta;
  }

  static BrokerDedicado iniciar(int porta, Path diretorio) throws Exception {
    TestKitNodes nos =
        new TestKitNodes.Builder()
            .setCombined(true)
            .setNumBrokerNodes(1)
            .setNumControllerNodes(1)
            .setBaseDirectory(diretorio)
            .build();
    String interno = nos.brokerListenerName().value();
    String controlador = nos.controllerListenerName().value();
    KafkaClusterTestKit cluster =
        new KafkaClusterTestKit.Builder(nos)
            .setConfigProp("offsets.topic.replication.factor", "1")
            .setConfigProp("offsets.topic.num.partitions", "1")
            .setConfigProp("transaction.state.log.replication.factor", "1")
            .setConfigProp("transaction.state.log.min.isr", "1")
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .setConfigProp(
                "listeners",
                interno
                    + "://localhost:0,"
                    + controlador
                    + "://localhost:0,"
                    + OUVINTE_FIXO
                    + "://localhost:"
                    + porta)
            .setConfigProp(
                "listener.security.protocol.map",
                interno + ":PLAINTEXT," + controlador + ":PLAINTEXT," + OUVINTE_FIXO + ":PLAINTEXT")
            .build();
    try {
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
      return new BrokerDedicado(cluster, porta);
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
  }

  String bootstrapServers() {
    return "localhost:" + porta;
  }

  @Override
  public synchronized void close() throws Exception {
    if (!fechado) {
      fechado = true;
      cluster.close();
    }
  }
}
