package pedidos.aplicador;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.kafka.support.KafkaHeaders;
import pedidos.contrato.TopicosDoKafka;
import pedidos.testes.InfraDeTeste;

/** What the applier sent to a dead-letter topic, as the tests read it back. */
public final class TopicoDeDescarte {

  private static final Duration ESPERA = Duration.ofSeconds(60);

  private TopicoDeDescarte() {}

  /** The first record of {@code loja.eventos.DLT} keyed {@code chave}, waiting for it. */
  public static ConsumerRecord<String, String> ler(String chave) {
    return ler(TopicosDoKafka.DESCARTE, chave, 1).get(0);
  }

  /** At least {@code quantos} records of {@code loja.eventos.DLT} keyed {@code chave}. */
  public static List<ConsumerRecord<String, String>> ler(String chave, int quantos) {
    return ler(TopicosDoKafka.DESCARTE, chave, quantos);
  }

  /**
   * At least {@code quantos} records of {@code topico} keyed {@code chave}, read from its start by
   * a group of its own, waiting until they are there.
   */
  public static List<ConsumerRecord<String, String>> ler(String topico, String chave, int quantos) {
    var config =
        InfraDeTeste.clienteDoKafka(
            ConsumerConfig.GROUP_ID_CONFIG,
            "teste-" + UUID.randomUUID(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest");
    List<ConsumerRecord<String, String>> lidos = new ArrayList<>();
    try (var consumidor =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      consumidor.subscribe(List.of(topico));
      await()
          .atMost(ESPERA)
          .until(
              () -> {
                for (var registro : consumidor.poll(Duration.ofMillis(200))) {
                  if (chave.equals(registro.key())) {
                    lidos.add(registro);
                  }
                }
                return lidos.size() >= quantos;
              });
    }
    return lidos;
  }

  /** A header of a dead-letter record as text; empty when it is absent. */
  public static String cabecalho(ConsumerRecord<String, String> registro, String nome) {
    var cabecalho = registro.headers().lastHeader(nome);
    return cabecalho == null ? "" : new String(cabecalho.value(), StandardCharsets.UTF_8);
  }

  /** Why the record was dead-lettered: the exception message header. */
  public static String motivo(ConsumerRecord<String, String> registro) {
    return cabecalho(registro, KafkaHeaders.DLT_EXCEPTION_MESSAGE);
  }
}
