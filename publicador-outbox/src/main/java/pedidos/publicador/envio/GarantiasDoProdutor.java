package pedidos.publicador.envio;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.stereotype.Component;
import pedidos.contrato.EnvelopeDeEntrada;

/**
 * The producer settings the relay's guarantees rest on, applied over whatever the environment says:
 * a record counts as delivered only once every in-sync replica has it, the producer's retries
 * neither duplicate nor reorder records within a partition, and every event the receptor accepts
 * fits in one request. Timeouts and batching stay configurable ({@code spring.kafka.producer.*}).
 */
@Component
class GarantiasDoProdutor implements DefaultKafkaProducerFactoryCustomizer {

  /**
   * The producer's {@code max.request.size}: the largest record of one event, framing of its batch
   * included ({@link EnvelopeDeEntrada#BYTES_DA_MENSAGEM}, also the topics' {@code
   * max.message.bytes}), plus the produce request's own header (client id, topic and partition).
   * Kafka's default of 1 MB would refuse events the receptor accepted. A record above the topics'
   * limit but under this one is refused by the broker instead, for good, and dead-lettered alike.
   */
  static final int BYTES_DA_REQUISICAO = EnvelopeDeEntrada.BYTES_DA_MENSAGEM + (16 << 10);

  @Override
  public void customize(DefaultKafkaProducerFactory<?, ?> produtores) {
    produtores.updateConfigs(
        Map.of(
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true,
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
            5,
            ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
            BYTES_DA_REQUISICAO));
  }
}
