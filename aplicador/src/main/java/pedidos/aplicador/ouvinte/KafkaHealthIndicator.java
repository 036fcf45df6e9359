package pedidos.aplicador.ouvinte;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

/**
 * Kafka in {@code /actuator/health} under {@code kafka}. Down means the listener is not receiving;
 * the sweep still applies from the inbox, so this is a warning about latency, not about loss.
 */
@Component("kafka")
class KafkaHealthIndicator implements HealthIndicator {

  private static final Duration ESPERA = Duration.ofSeconds(3);

  private final KafkaAdmin admin;

  KafkaHealthIndicator(KafkaAdmin admin) {
    this.admin = admin;
  }

  @Override
  public Health health() {
    try (AdminClient cliente = AdminClient.create(admin.getConfigurationProperties())) {
      var cluster =
          cliente.describeCluster(new DescribeClusterOptions().timeoutMs((int) ESPERA.toMillis()));
      int nos = cluster.nodes().get(ESPERA.toMillis(), TimeUnit.MILLISECONDS).size();
      return Health.up()
          .withDetail(
              "clusterId", cluster.clusterId().get(ESPERA.toMillis(), TimeUnit.MILLISECONDS))
          .withDetail("nos", nos)
          .build();
    } catch (ExecutionException | TimeoutException e) {
      return Health.down(e).build();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Health.down(e).build();
    }
  }
}
