package pedidos.publicador;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.stereotype.Component;

/**
 * The producer settings the relay's guarantees rest on, applied over whatever the environment says:
 * a record counts as delivered only once every in-sync replica has it, and the producer's retries
 * neither duplicate nor reorder records within a partition. Timeouts and batching stay configurable
 * ({@code spring.kafka.producer.*}).
 */
@Component
class GarantiasDoProdutor implements DefaultKafkaProducerFactoryCustomizer {

  @Override
  public void customize(DefaultKafkaProducerFactory<?, ?> produtores) {
    produtores.updateConfigs(
        Map.of(
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true,
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
            5));
  }
}
