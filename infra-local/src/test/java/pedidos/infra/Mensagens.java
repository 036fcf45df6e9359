package pedidos.infra;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Plain kafka-clients round trip, through a consumer group like the services use. */
final class Mensagens {

  private Mensagens() {}

  static RecordMetadata enviar(String bootstrap, String topico, String chave, String valor)
      throws Exception {
    try (KafkaProducer<String, String> produtor =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ProducerConfig.ACKS_CONFIG,
                "all"),
            new StringSerializer(),
            new StringSerializer())) {
      return produtor.send(new ProducerRecord<>(topico, chave, valor)).get();
    }
  }

  /** Polls until one record arrives or the deadline passes (then null). */
  static ConsumerRecord<String, String> receberUm(
      String bootstrap, String topico, Duration limite) {
    try (KafkaConsumer<String, String> consumidor =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG,
                "teste-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"),
            new StringDeserializer(),
            new StringDeserializer())) {
      consumidor.subscribe(List.of(topico));
      Instant prazo = Instant.now().plus(limite);
      while (Instant.now().isBefore(prazo)) {
        for (ConsumerRecord<String, String> registro : consumidor.poll(Duration.ofMillis(200))) {
          return registro;
        }
      }
      return null;
    }
  }
}
