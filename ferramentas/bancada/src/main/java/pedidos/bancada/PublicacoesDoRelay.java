package pedidos.bancada;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import pedidos.contrato.TopicosDoKafka;
import pedidos.infra.UsuarioDoKafka;

/**
 * When the relay handed each inbox row to its Kafka producer: the record's {@code CreateTime},
 * which the producer stamps at {@code send()} (the relay leaves it unset). Joined with the inbox
 * row's partition and offset (recorded by the aplicador) it splits inbox → applied in two: the
 * relay's part (WAL decoding, Debezium's batching) and the rest (producer, broker, listener).
 */
final class PublicacoesDoRelay {

  private static final Duration ESPERA = Duration.ofMinutes(2);

  private PublicacoesDoRelay() {}

  /** {@code "partition:offset"} → CreateTime in µs, for every record of {@code loja.eventos}. */
  static Map<String, Long> ler(String bootstrap) {
    var propriedades = new Properties();
    propriedades.putAll(UsuarioDoKafka.ADMINISTRADOR.propriedadesDoCliente());
    propriedades.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    propriedades.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    propriedades.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    Map<String, Long> instantes = new HashMap<>();
    try (var consumidor =
        new KafkaConsumer<>(
            propriedades, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> particoes =
          consumidor.partitionsFor(TopicosDoKafka.EVENTOS, ESPERA).stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList();
      consumidor.assign(particoes);
      consumidor.seekToBeginning(particoes);
      Map<TopicPartition, Long> fins = consumidor.endOffsets(particoes, ESPERA);
      long prazo = System.nanoTime() + ESPERA.toNanos();
      while (particoes.stream().anyMatch(p -> consumidor.position(p) < fins.get(p))) {
        if (System.nanoTime() > prazo) {
          throw new IllegalStateException("could not read " + TopicosDoKafka.EVENTOS + " in time");
        }
        for (ConsumerRecord<byte[], byte[]> registro : consumidor.poll(Duration.ofSeconds(1))) {
          if (registro.timestampType() == TimestampType.CREATE_TIME) {
            instantes.put(
                registro.partition() + ":" + registro.offset(), registro.timestamp() * 1000);
          }
        }
      }
    }
    return instantes;
  }
}
