package pedidos.simulador;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.RegistroDeEfeito;
import pedidos.contrato.TopicosDoKafka;
import pedidos.infra.InfraLocal;
import pedidos.infra.UsuarioDoKafka;

/** The JVM's shared broker, a fresh topic per test, and a producer that writes like the relay. */
final class KafkaDeTeste {

  private KafkaDeTeste() {}

  static String bootstrap() {
    return InfraLocal.compartilhada().kafka().bootstrapServers();
  }

  /** The SASL settings of the shared broker's administrator (the simulator reads as one). */
  static Map<String, Object> seguranca() {
    return UsuarioDoKafka.ADMINISTRADOR.propriedadesDoCliente();
  }

  static String topicoNovo() {
    String topico = "separacao-efeitos-" + UUID.randomUUID();
    criar(topico);
    return topico;
  }

  static Admin admin() {
    return Admin.create(InfraLocal.compartilhada().kafka().cliente(UsuarioDoKafka.ADMINISTRADOR));
  }

  static void criar(String topico) {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topico, 3, (short) 1))).all().get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static KafkaProducer<String, String> produtor() {
    Properties config = new Properties();
    config.putAll(InfraLocal.compartilhada().kafka().cliente(UsuarioDoKafka.ADMINISTRADOR));
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return new KafkaProducer<>(config);
  }

  /** The relay's message: keyed by order, value JSON, {@code idempotency-key} header. */
  static ProducerRecord<String, String> efeito(
      String topico, String pedidoId, String efeito, String status, boolean comCabecalho) {
    String valor =
        FormatoDosRegistros.escrever(
            new RegistroDeEfeito(
                pedidoId, efeito, status, 1990L, Instant.parse("2026-11-29T12:00:00Z")));
    var registro = new ProducerRecord<>(topico, pedidoId, valor);
    if (comCabecalho) {
      registro
          .headers()
          .add(
              TopicosDoKafka.CABECALHO_DE_IDEMPOTENCIA,
              RegistroDeEfeito.idempotencia(pedidoId, efeito).getBytes(StandardCharsets.UTF_8));
    }
    return registro;
  }
}
