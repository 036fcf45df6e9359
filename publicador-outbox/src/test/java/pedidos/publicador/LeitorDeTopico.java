package pedidos.publicador;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import pedidos.contrato.AssinaturaDeRegistro;
import pedidos.contrato.TopicosDoKafka;
import pedidos.testes.InfraDeTeste;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Everything written to one topic from the moment it was created (or from the beginning), read
 * without a consumer group. Tests share topics, so they filter by their own keys.
 */
final class LeitorDeTopico implements AutoCloseable {

  private static final AssinaturaDeRegistro ASSINATURA =
      AssinaturaDeRegistro.de(List.of(InfraDeTeste.ASSINATURA_LOCAL));

  static final JsonMapper JSON =
      JsonMapper.builder()
          .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .build();

  private final KafkaConsumer<String, String> consumidor;
  private final List<ConsumerRecord<String, String>> lidos = new ArrayList<>();
  // Parsed once when read: tests look at thousands of records many times over.
  private final List<JsonNode> valores = new ArrayList<>();

  private LeitorDeTopico(Map<String, Object> cliente, String topico, boolean doInicio) {
    Map<String, Object> configuracao = new java.util.HashMap<>(cliente);
    configuracao.putAll(
        Map.of(
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class.getName(),
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            "false"));
    consumidor = new KafkaConsumer<>(configuracao);
    List<TopicPartition> particoes =
        consumidor.partitionsFor(topico, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(p.topic(), p.partition()))
            .toList();
    if (particoes.isEmpty()) {
      throw new IllegalStateException("topic " + topico + " does not exist");
    }
    consumidor.assign(particoes);
    if (doInicio) {
      consumidor.seekToBeginning(particoes);
    } else {
      consumidor.seekToEnd(particoes);
    }
    // Resolves the lazy seek now: records written after this line are read.
    particoes.forEach(consumidor::position);
  }

  /** Reads what is written from now on. */
  /** On a broker of a test's own, without authentication. */
  static LeitorDeTopico novos(String bootstrapServers, String topico) {
    return novos(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topico);
  }

  /**
   * @param cliente bootstrap.servers and the security settings ({@link
   *     pedidos.testes.InfraDeTeste#clienteDoKafka})
   */
  static LeitorDeTopico novos(Map<String, Object> cliente, String topico) {
    return new LeitorDeTopico(cliente, topico, false);
  }

  static LeitorDeTopico desdeOInicio(String bootstrapServers, String topico) {
    return new LeitorDeTopico(
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topico, true);
  }

  /** All records read so far, after one more poll. */
  synchronized List<ConsumerRecord<String, String>> registros() {
    for (ConsumerRecord<String, String> registro : consumidor.poll(Duration.ofMillis(200))) {
      lidos.add(registro);
      valores.add(registro.value() == null ? null : JSON.readTree(registro.value()));
    }
    return List.copyOf(lidos);
  }

  synchronized List<ConsumerRecord<String, String>> comChave(String chave) {
    return registros().stream().filter(r -> chave.equals(r.key())).toList();
  }

  /** The distinct values of one field of the JSON values, for the records whose key starts so. */
  synchronized Set<String> campos(String prefixoDaChave, String campo) {
    List<ConsumerRecord<String, String>> registros = registros();
    Set<String> campos = new HashSet<>();
    for (int i = 0; i < registros.size(); i++) {
      String chave = registros.get(i).key();
      if (chave != null && chave.startsWith(prefixoDaChave)) {
        campos.add(valores.get(i).path(campo).asString());
      }
    }
    return campos;
  }

  synchronized long quantos(String prefixoDaChave) {
    return registros().stream()
        .filter(r -> r.key() != null && r.key().startsWith(prefixoDaChave))
        .count();
  }

  static JsonNode valor(ConsumerRecord<String, String> registro) {
    return JSON.readTree(registro.value());
  }

  static String cabecalho(ConsumerRecord<String, String> registro, String nome) {
    Header cabecalho = registro.headers().lastHeader(nome);
    return cabecalho == null ? null : new String(cabecalho.value(), StandardCharsets.UTF_8);
  }

  /** Whether the record carries the relay's valid signature under the tests' key. */
  static boolean assinado(ConsumerRecord<String, String> registro) {
    Header cabecalho = registro.headers().lastHeader(TopicosDoKafka.CABECALHO_DE_ASSINATURA);
    return ASSINATURA.verificar(
            registro.topic(),
            registro.key() == null ? null : registro.key().getBytes(StandardCharsets.UTF_8),
            registro.value() == null ? null : registro.value().getBytes(StandardCharsets.UTF_8),
            cabecalho == null ? null : cabecalho.value())
        == AssinaturaDeRegistro.Veredicto.VALIDA;
  }

  @Override
  public synchronized void close() {
    consumidor.close(CloseOptions.timeout(Duration.ofSeconds(5)));
  }
}
