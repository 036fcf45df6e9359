package pedidos.publicador;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Sends a batch and returns only when Kafka acknowledged every record of it, or throws. The stream
 * and the fallback both go through here, so "acknowledged" means the same thing in both.
 */
@Component
class EnviadorDeMensagens {

  // The wait on each acknowledgement is cut in slices so that a stop request is noticed while Kafka
  // is down, instead of after the whole delivery timeout.
  private static final long FATIA_DA_ESPERA_MS = 200;

  private final KafkaTemplate<String, String> kafka;
  private final MetricasDoPublicador metricas;
  private final Duration espera;

  EnviadorDeMensagens(
      KafkaTemplate<String, String> kafka,
      MetricasDoPublicador metricas,
      PublicadorProperties propriedades) {
    this.kafka = kafka;
    this.metricas = metricas;
    this.espera = propriedades.esperaDoEnvio();
  }

  /**
   * Sends all, then waits for each in order (the producer keeps each partition's order, and sending
   * everything before waiting lets it batch).
   *
   * @param desistir checked while waiting: true aborts the batch, unacknowledged
   */
  void enviarTodas(List<Mensagem> mensagens, Via via, BooleanSupplier desistir)
      throws InterruptedException {
    List<CompletableFuture<SendResult<String, String>>> confirmacoes =
        new ArrayList<>(mensagens.size());
    for (Mensagem mensagem : mensagens) {
      confirmacoes.add(enviar(mensagem));
    }
    for (int i = 0; i < mensagens.size(); i++) {
      aguardar(confirmacoes.get(i), mensagens.get(i), desistir);
      metricas.publicada(mensagens.get(i), via);
    }
  }

  private CompletableFuture<SendResult<String, String>> enviar(Mensagem mensagem) {
    try {
      return kafka.send(mensagem.registro());
    } catch (RuntimeException e) {
      // send() itself throws when metadata cannot be had within max.block.ms (Kafka down).
      return CompletableFuture.failedFuture(e);
    }
  }

  private void aguardar(
      CompletableFuture<SendResult<String, String>> confirmacao,
      Mensagem mensagem,
      BooleanSupplier desistir)
      throws InterruptedException {
    long prazo = System.nanoTime() + espera.toNanos();
    while (true) {
      try {
        confirmacao.get(FATIA_DA_ESPERA_MS, TimeUnit.MILLISECONDS);
        return;
      } catch (ExecutionException e) {
        throw falha(mensagem, "was not acknowledged", e.getCause());
      } catch (TimeoutException e) {
        if (desistir.getAsBoolean()) {
          throw falha(mensagem, "was abandoned: the relay is stopping", null);
        }
        if (System.nanoTime() - prazo > 0) {
          throw falha(mensagem, "was not acknowledged within " + espera, e);
        }
      }
    }
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
