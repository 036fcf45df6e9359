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
    return enviar(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), topico, chave, valor);
  }

  /**
   * @param cliente bootstrap.servers and the security settings ({@link KafkaLocal#cliente})
   */
  static RecordMetadata enviar(
      Map<String, Object> cliente, String topico, String chave, String valor) throws Exception {
    Map<String, Object> configuracao = new java.util.HashMap<>(cliente);
    configuracao.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, String> produtor =
        new KafkaProducer<>(configuracao, new StringSerializer(), new StringSerializer())) {
      return produtor.send(new ProducerRecord<>(topico, chave, valor)).get();
    }
  }

  /** Polls until one record arrives or the deadline passes (then null). */
  static ConsumerRecord<String, String> receberUm(
      String bootstrap, String topico, Duration limite) {
    return receberUm(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), topico, limite);
  }

  static ConsumerRecord<String, String> receberUm(
      Map<String, Object> cliente, String topico, Duration limite) {
    Map<String, Object> configuracao = new java.util.HashMap<>(cliente);
    configuracao.put(ConsumerConfig.GROUP_ID_CONFIG, "teste-" + UUID.randomUUID());
    configuracao.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (KafkaConsumer<String, String> consumidor =
        new KafkaConsumer<>(configuracao, new StringDeserializer(), new StringDeserializer())) {
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
