package pedidos.aplicador.ouvinte;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.AplicadorProperties;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.PosicaoNoTopico;
import pedidos.contrato.AssinaturaDeRegistro;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.RegistroDeEvento;
import pedidos.contrato.TopicosDoKafka;
import pedidos.dominio.ModoDeAplicacao;

/**
 * Runs the listener's path on made-up orders before the listener starts ({@link
 * AplicadorProperties.Aquecimento}): one thread per listener thread, so that each warms a
 * connection of its own, each order's events applied in one transaction that is rolled back.
 *
 * <p>A lifecycle bean of an earlier phase than the listener containers, so the containers start
 * after it, and the service reports ready (readiness and {@code ouvinte}) only after that. It calls
 * what {@link OuvinteDeEventos} calls, but not the metrics: the warm-up is not traffic. A failure
 * is logged and the service starts anyway: the warm-up only saves time, and the listener's own
 * errors will say what is wrong.
 */
@Component
class AquecimentoDoOuvinte implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(AquecimentoDoOuvinte.class);
  private static final String[] TIPOS = {"order.created", "order.paid", "order.shipped"};

  private final VerificadorDeRegistros verificador;
  private final AplicadorDeEventos aplicador;
  private final TransactionTemplate transacao;
  private final AplicadorProperties propriedades;
  private final AssinaturaDeRegistro assinatura;
  private final boolean ouvinteInicia;
  private final AtomicInteger aplicados = new AtomicInteger();
  private volatile boolean executado;

  AquecimentoDoOuvinte(
      VerificadorDeRegistros verificador,
      AplicadorDeEventos aplicador,
      TransactionTemplate transacao,
      AplicadorProperties propriedades,
      KafkaProperties kafka) {
    this.verificador = verificador;
    this.aplicador = aplicador;
    this.transacao = transacao;
    this.propriedades = propriedades;
    this.assinatura = AssinaturaDeRegistro.de(propriedades.assinatura());
    // The replay command runs without the listener: nothing to warm for.
    this.ouvinteInicia = kafka.getListener().isAutoStartup();
  }

  @Override
  public void start() {
    executado = true;
    AplicadorProperties.Aquecimento aquecimento = propriedades.aquecimento();
    if (aquecimento.pedidos() == 0 || !ouvinteInicia) {
      return;
    }
    long inicio = System.nanoTime();
    long prazo = inicio + aquecimento.limite().toNanos();
    String prefixo = "aquecimento-" + UUID.randomUUID() + "-";
    int linhas = propriedades.concorrencia();
    ExecutorService executor = Executors.newFixedThreadPool(linhas);
    try {
      List<Future<?>> feitos = new ArrayList<>();
      for (int linha = 0; linha < linhas; linha++) {
        String prefixoDaLinha = prefixo + linha + "-";
        feitos.add(executor.submit(() -> aquecer(prefixoDaLinha, aquecimento.pedidos(), prazo)));
      }
      for (Future<?> feito : feitos) {
        feito.get();
      }
      log.info(
          "Warmed up the listener's path: {} applies on {} thread(s) in {} ms, rolled back",
          aplicados.get(),
          linhas,
          Duration.ofNanos(System.nanoTime() - inicio).toMillis());
    } catch (ExecutionException e) {
      log.warn(
          "The warm-up failed after {} applies; starting the listener anyway",
          aplicados.get(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      executor.shutdownNow();
    }
  }

  private void aquecer(String prefixo, int pedidos, long prazo) {
    for (int i = 0; i < pedidos && System.nanoTime() < prazo; i++) {
      String pedido = prefixo + i;
      transacao.executeWithoutResult(
          status -> {
            for (int sequencia = 1; sequencia <= TIPOS.length; sequencia++) {
              ConsumerRecord<String, String> registro = registro(pedido, sequencia);
              verificador.verificar(registro, "kafka");
              RegistroDeEvento evento = FormatoDosRegistros.lerEvento(registro.value());
              aplicador
                  .guardarEAplicarNaTransacao(
                      evento, ModoDeAplicacao.NORMAL, new PosicaoNoTopico(0, sequencia))
                  .ifPresent(aplicado -> aplicados.incrementAndGet());
            }
            status.setRollbackOnly();
          });
    }
  }

  /** A record as the relay writes it, signed. */
  private ConsumerRecord<String, String> registro(String pedido, int sequencia) {
    String eventoId = pedido + "-" + sequencia;
    String valor =
        """
        {"evento_id": "%1$s", "recurso_id": "%2$s", "tipo": "%3$s",
         "payload": {"id": "%1$s", "type": "%3$s", "sequence": %4$d,
                     "occurred_at": "2026-01-01T00:00:0%4$dZ",
                     "data": {"id": "%2$s", "total_cents": 1990,
                              "customer_email": "aquecimento@example.invalid"}},
         "recebido_em": "2026-01-01T00:00:0%4$dZ"}
        """
            .formatted(eventoId, pedido, TIPOS[sequencia - 1], sequencia);
    var registro = new ConsumerRecord<>(propriedades.topico(), 0, sequencia, pedido, valor);
    registro
        .headers()
        .add(
            TopicosDoKafka.CABECALHO_DE_ASSINATURA,
            assinatura
                .assinar(
                    propriedades.topico(),
                    pedido.getBytes(StandardCharsets.UTF_8),
                    valor.getBytes(StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8));
    return registro;
  }

  /** Events the warm-up applied (each one written, then rolled back). */
  int aplicados() {
    return aplicados.get();
  }

  @Override
  public void stop() {}

  @Override
  public boolean isRunning() {
    return executado;
  }

  /** Before the listener containers ({@code AbstractMessageListenerContainer.DEFAULT_PHASE}). */
  @Override
  public int getPhase() {
    return 0;
  }
}
