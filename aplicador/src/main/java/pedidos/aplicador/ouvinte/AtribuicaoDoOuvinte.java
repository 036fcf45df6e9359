package pedidos.aplicador.ouvinte;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.stereotype.Component;
import pedidos.aplicador.configuracao.AplicadorProperties;

/**
 * The listener in {@code /actuator/health} under {@code ouvinte}: OUT_OF_SERVICE until each of its
 * consumers has joined the group and been given its partitions (possibly none, when there are more
 * consumers than partitions), UP from then on. The context reports started about two seconds before
 * that, and the records of those seconds wait for a consumer: a deployment that waits for health
 * before sending traffic, or before stopping the instance this one replaces, must wait for this.
 *
 * <p>Later rebalances do not make it unready: they are the group's normal life, and the broker's
 * reachability is {@link KafkaHealthIndicator}'s.
 */
@Component("ouvinte")
class AtribuicaoDoOuvinte implements ConsumerAwareRebalanceListener, HealthIndicator {

  private final int consumidores;

  /** By the consumer's thread: a container that restarts its consumers keeps the same threads. */
  private final Map<String, Integer> particoesPorConsumidor = new ConcurrentHashMap<>();

  AtribuicaoDoOuvinte(AplicadorProperties propriedades) {
    this.consumidores = propriedades.concorrencia();
  }

  @Override
  public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> particoes) {
    // The whole assignment after the call, not only what was added (cooperative rebalances add).
    particoesPorConsumidor.put(Thread.currentThread().getName(), consumer.assignment().size());
  }

  @Override
  public Health health() {
    int prontos = particoesPorConsumidor.size();
    int particoes = particoesPorConsumidor.values().stream().mapToInt(Integer::intValue).sum();
    return (prontos >= consumidores ? Health.up() : Health.outOfService())
        .withDetail("consumidores", consumidores)
        .withDetail("consumidoresComParticoesAtribuidas", prontos)
        .withDetail("particoes", particoes)
        .build();
  }
}
