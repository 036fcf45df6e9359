package pedidos.simulador;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.RegistroDeEfeito;
import pedidos.contrato.RegistroIlegivelException;
import pedidos.contrato.TopicosDoKafka;

/**
 * Plays the picking system: reads {@code separacao.efeitos} with a group of its own from the
 * beginning and keeps each effect once, by its {@code idempotency-key}, counting the duplicates it
 * had to drop. Only the orders of this run are kept (the topic may hold earlier runs').
 */
final class SistemaDeSeparacao implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SistemaDeSeparacao.class);
  private static final Duration PAUSA_APOS_RECUSA = Duration.ofMillis(500);

  private final KafkaConsumer<String, String> consumidor;
  private final Predicate<String> doPedido;
  private final Map<String, RegistroDeEfeito> porChave = new ConcurrentHashMap<>();
  private final AtomicLong recebidas = new AtomicLong();
  private final AtomicLong duplicadas = new AtomicLong();
  private final AtomicLong semCabecalho = new AtomicLong();
  private final AtomicLong ilegiveis = new AtomicLong();
  private final AtomicLong recusas = new AtomicLong();
  private final Thread thread;
  private volatile boolean parar;

  private final String topico;
  // Only the consumer's thread touches it.
  private Instant recusadoDesde;

  private SistemaDeSeparacao(
      KafkaConsumer<String, String> consumidor, String topico, Predicate<String> doPedido) {
    this.consumidor = consumidor;
    this.topico = topico;
    this.doPedido = doPedido;
    this.thread = new Thread(this::consumir, "separacao");
    thread.setDaemon(true);
  }

  /**
   * @param doPedido which order ids belong to this run
   */
  static SistemaDeSeparacao iniciar(
      String bootstrapServers, String topico, Predicate<String> doPedido) {
    return iniciar(bootstrapServers, Map.of(), topico, doPedido);
  }

  /**
   * @param cliente more consumer settings (SASL, TLS), with Kafka's names
   * @param doPedido which order ids belong to this run
   */
  static SistemaDeSeparacao iniciar(
      String bootstrapServers, Map<String, ?> cliente, String topico, Predicate<String> doPedido) {
    Properties config = new Properties();
    config.putAll(cliente);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    // A group of its own: the real picking system's offsets are not ours to move.
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "simulador-separacao-" + UUID.randomUUID());
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    // The relay creates the topic with its partition count; a consumer must never create it.
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    // A topic created after we subscribed is found within seconds, not the default five minutes.
    config.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "2000");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    var separacao = new SistemaDeSeparacao(new KafkaConsumer<>(config), topico, doPedido);
    separacao.thread.start();
    return separacao;
  }

  private void consumir() {
    try {
      // Subscribed here: a consumer belongs to the one thread that polls it.
      consumidor.subscribe(Set.of(topico));
      while (!parar) {
        try {
          for (ConsumerRecord<String, String> registro : consumidor.poll(Duration.ofMillis(200))) {
            receber(registro);
          }
          if (recusadoDesde != null) {
            log.info("picking consumer admitted again after being refused since {}", recusadoDesde);
            recusadoDesde = null;
          }
        } catch (AuthenticationException | AuthorizationException e) {
          // A broker that has just started (or restarted empty) takes a moment to hold its users
          // and ACLs, and refuses everyone until then; a picking system waits it out, as the relay
          // and the aplicador do, instead of reading nothing for the rest of the run.
          recusas.incrementAndGet();
          if (recusadoDesde == null) {
            recusadoDesde = Instant.now();
            log.warn("picking consumer refused by the broker, retrying: {}", e.toString());
          }
          pausar();
        }
      }
    } catch (WakeupException e) {
      // close() asked us to stop
    } catch (RuntimeException e) {
      log.error("picking consumer stopped", e);
    } finally {
      consumidor.close(Duration.ofSeconds(5));
    }
  }

  private void pausar() {
    try {
      Thread.sleep(PAUSA_APOS_RECUSA.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      parar = true;
    }
  }

  private void receber(ConsumerRecord<String, String> registro) {
    RegistroDeEfeito efeito;
    try {
      efeito = FormatoDosRegistros.lerEfeito(registro.value());
    } catch (RegistroIlegivelException e) {
      if (registro.key() != null && doPedido.test(registro.key())) {
        ilegiveis.incrementAndGet();
      }
      return;
    }
    if (!doPedido.test(efeito.pedidoId())) {
      return;
    }
    recebidas.incrementAndGet();
    Header cabecalho = registro.headers().lastHeader(TopicosDoKafka.CABECALHO_DE_IDEMPOTENCIA);
    String chave;
    if (cabecalho == null || cabecalho.value() == null) {
      semCabecalho.incrementAndGet();
      chave = efeito.idempotencia();
    } else {
      chave = new String(cabecalho.value(), StandardCharsets.UTF_8);
    }
    if (porChave.putIfAbsent(chave, efeito) != null) {
      duplicadas.incrementAndGet();
    }
  }

  /** The effects kept, by idempotency key. */
  Map<String, RegistroDeEfeito> efeitos() {
    return Map.copyOf(porChave);
  }

  long recebidas() {
    return recebidas.get();
  }

  long duplicadas() {
    return duplicadas.get();
  }

  /** Messages without the header, deduplicated by {@code pedido_id:efeito} from the value. */
  long semCabecalho() {
    return semCabecalho.get();
  }

  /** Messages of this run's orders whose value could not be read. */
  long ilegiveis() {
    return ilegiveis.get();
  }

  /** Polls the broker refused (authentication or authorization), each retried. */
  long recusas() {
    return recusas.get();
  }

  @Override
  public void close() {
    parar = true;
    consumidor.wakeup();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
