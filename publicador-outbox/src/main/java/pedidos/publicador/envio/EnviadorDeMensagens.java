package pedidos.publicador.envio;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;
import pedidos.contrato.AssinaturaDeRegistro;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.contrato.TopicosDoKafka;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.publicador.linhas.FalhasDaLinha;
import pedidos.publicador.linhas.Mensagem;
import pedidos.publicador.linhas.Morto;
import pedidos.publicador.linhas.Via;
import pedidos.publicador.metricas.MetricasDoPublicador;

/**
 * Sends a batch and returns only when Kafka acknowledged every record of it or refused it for good,
 * or throws. The stream, the fallback and the re-publishing of dead letters all go through here, so
 * "acknowledged" and "refused for good" mean the same thing in all three, and every record the
 * relay writes is signed here ({@link AssinaturaDeRegistro}): the aplicador trusts nothing else.
 */
@Component
public class EnviadorDeMensagens {

  // The wait on each acknowledgement is cut in slices so that a stop request is noticed while Kafka
  // is down, instead of after the whole delivery timeout.
  private static final long FATIA_DA_ESPERA_MS = 200;

  private final KafkaTemplate<String, String> kafka;
  private final MetricasDoPublicador metricas;
  private final Duration espera;
  private final AssinaturaDeRegistro assinatura;
  private final PublicadorProperties.Topicos topicos;

  /**
   * @throws IllegalArgumentException when {@code PEDIDOS_KAFKA_ASSINATURA} is missing or a key is
   *     too short: the relay does not start rather than write records the aplicador refuses
   */
  EnviadorDeMensagens(
      KafkaTemplate<String, String> kafka,
      MetricasDoPublicador metricas,
      PublicadorProperties propriedades) {
    this.kafka = kafka;
    this.metricas = metricas;
    this.espera = propriedades.esperaDoEnvio();
    this.assinatura = AssinaturaDeRegistro.de(propriedades.assinatura());
    this.topicos = propriedades.topicos();
  }

  /**
   * Connects a fresh producer before the stream starts (the broker's address, authentication, the
   * topics' metadata; its producer id follows at once). A producer that cannot connect fails the
   * run before the engine streams, so health never reports a relay that cannot send as streaming;
   * and the first rows of a start do not wait for the connection. Bounded by the producer's {@code
   * max.block.ms}; throws when Kafka does not answer.
   */
  public void prepararProdutor() {
    kafka.partitionsFor(topicos.eventos());
    kafka.partitionsFor(topicos.efeitos());
  }

  /**
   * Sends all, then waits for each in order (the producer keeps each partition's order, and sending
   * everything before waiting lets it batch).
   *
   * @param desistir checked while waiting: true aborts the batch, unacknowledged
   * @return the records Kafka refused for a reason of their own ({@link FalhasDaLinha}), each of
   *     which the caller must dead-letter; every other record was acknowledged
   * @throws FalhaAoPublicarException on any other failure: nothing of the batch counts as sent
   */
  public List<Morto> enviarTodas(List<Mensagem> mensagens, Via via, BooleanSupplier desistir)
      throws InterruptedException {
    List<CompletableFuture<SendResult<String, String>>> confirmacoes =
        new ArrayList<>(mensagens.size());
    for (Mensagem mensagem : mensagens) {
      confirmacoes.add(enviar(mensagem));
    }
    List<Morto> recusadas = new ArrayList<>();
    for (int i = 0; i < mensagens.size(); i++) {
      Throwable recusa = aguardar(confirmacoes.get(i), mensagens.get(i), desistir);
      if (recusa == null) {
        metricas.publicada(mensagens.get(i), via);
      } else {
        recusadas.add(Morto.de(mensagens.get(i).origem(), recusa));
      }
    }
    return recusadas;
  }

  private CompletableFuture<SendResult<String, String>> enviar(Mensagem mensagem) {
    try {
      return kafka.send(assinado(mensagem.registro()));
    } catch (RuntimeException e) {
      // send() itself throws when metadata cannot be had within max.block.ms (Kafka down).
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * A copy with the signature header: the producer makes a sent record's headers read-only, and the
   * same message may be sent again (a failed batch is retried).
   */
  private ProducerRecord<String, String> assinado(ProducerRecord<String, String> registro) {
    var cabecalhos = new RecordHeaders(registro.headers().toArray());
    cabecalhos.remove(TopicosDoKafka.CABECALHO_DE_ASSINATURA);
    cabecalhos.add(
        TopicosDoKafka.CABECALHO_DE_ASSINATURA,
        assinatura
            .assinar(registro.topic(), bytes(registro.key()), bytes(registro.value()))
            .getBytes(StandardCharsets.UTF_8));
    return new ProducerRecord<>(
        registro.topic(),
        registro.partition(),
        registro.timestamp(),
        registro.key(),
        registro.value(),
        cabecalhos);
  }

  /** As the producer's {@code StringSerializer} writes them (UTF-8), so signed as they travel. */
  private static byte[] bytes(String texto) {
    return texto == null ? null : texto.getBytes(StandardCharsets.UTF_8);
  }

  /** Null once acknowledged; the record's own failure if Kafka refused it for good; else throws. */
  private Throwable aguardar(
      CompletableFuture<SendResult<String, String>> confirmacao,
      Mensagem mensagem,
      BooleanSupplier desistir)
      throws InterruptedException {
    long prazo = System.nanoTime() + espera.toNanos();
    while (true) {
      try {
        confirmacao.get(FATIA_DA_ESPERA_MS, TimeUnit.MILLISECONDS);
        return null;
      } catch (ExecutionException e) {
        Throwable daLinha = FalhasDaLinha.daLinha(e.getCause());
        if (daLinha != null && !topicoPequenoDemais(daLinha, mensagem)) {
          return e.getCause();
        }
        throw falha(mensagem, "was not acknowledged", e.getCause());
      } catch (TimeoutException e) {
        if (desistir.getAsBoolean()) {
          throw falha(mensagem, "was abandoned: the relay is stopping or lost its lease", null);
        }
        if (System.nanoTime() - prazo > 0) {
          throw falha(mensagem, "was not acknowledged within " + espera, e);
        }
      }
    }
  }

  /**
   * The broker refused as too large a record that fits the input envelope: the topic is what is too
   * small (created with the broker's defaults, say, after Kafka lost its data), not the row. The
   * relay stops, and its restart raises the topics' limit ({@link TopicosDoPublicador}).
   */
  private static boolean topicoPequenoDemais(Throwable daLinha, Mensagem mensagem) {
    return (daLinha instanceof RecordTooLargeException
            || daLinha instanceof RecordBatchTooLargeException)
        && bytes(mensagem.registro()) <= EnvelopeDeEntrada.BYTES_DA_MENSAGEM;
  }

  private static long bytes(ProducerRecord<String, String> registro) {
    long bytes = utf8(registro.key()) + utf8(registro.value());
    for (Header cabecalho : registro.headers()) {
      bytes += utf8(cabecalho.key()) + (cabecalho.value() == null ? 0 : cabecalho.value().length);
    }
    return bytes;
  }

  private static long utf8(String texto) {
    return texto == null ? 0 : texto.getBytes(StandardCharsets.UTF_8).length;
  }

  private static FalhaAoPublicarException falha(Mensagem mensagem, String oQue, Throwable causa) {
    return new FalhaAoPublicarException(
        "record for "
            + mensagem.registro().topic()
            + " key "
            + mensagem.registro().key()
            + " "
            + oQue,
        causa);
  }
}
