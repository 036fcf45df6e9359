package pedidos.simulador;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import pedidos.contrato.AssinaturaDeWebhook;

/**
 * Delivers signed webhooks the way a provider does: each copy at its planned instant, from several
 * connections at once, and again after a failure (5xx, 408, 429, no answer in time) with an
 * exponential back-off, until a 2xx or the deadline. Any other 4xx says the event itself is wrong,
 * so it is not sent again.
 */
final class Entregador {

  static final String CAMINHO = "/webhooks/loja";

  private static final Logger log = LoggerFactory.getLogger(Entregador.class);

  private final URI destino;
  private final AssinaturaDeWebhook assinatura;
  private final FormatoDaLoja formato = new FormatoDaLoja();
  private final int concorrencia;
  private final Duration timeout;
  private final Duration reenvioInicial;
  private final Duration reenvioMaximo;
  private final Clock relogio;
  private final HttpClient http;

  /**
   * @param receptor the receptor's base URL; events go to {@value #CAMINHO} under it
   * @param concorrencia requests in flight at once
   * @param timeout of each request: no answer by then counts as a failure
   * @param reenvioInicial the pause before the first redelivery of a copy, doubled on each failure
   *     up to {@code reenvioMaximo}, with jitter
   */
  Entregador(
      URI receptor,
      AssinaturaDeWebhook assinatura,
      int concorrencia,
      Duration timeout,
      Duration reenvioInicial,
      Duration reenvioMaximo,
      Clock relogio) {
    String base = receptor.toString();
    this.destino =
        URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + CAMINHO);
    this.assinatura = assinatura;
    this.concorrencia = concorrencia;
    this.timeout = timeout;
    this.reenvioInicial = reenvioInicial;
    this.reenvioMaximo = reenvioMaximo;
    this.relogio = relogio;
    // HTTP/1.1: a provider's webhooks are plain POSTs, and h2c upgrades only add a round trip.
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .build();
  }

  /**
   * Sends the plan and returns when every copy is acknowledged or refused, or when the deadline
   * passes (the copies still failing are then given up, and recorded so).
   */
  ResumoDaEntrega entregar(PlanoDeEntrega plano, RegistroDeEntregas registro, Duration prazo)
      throws InterruptedException {
    registro.planejado(plano);
    long inicio = System.nanoTime();
    Instant agora = relogio.instant();
    Map<String, Corpo> corpos = new HashMap<>();
    var execucao = new Execucao(registro, plano.envios().size());
    for (PlanoDeEntrega.Envio envio : plano.envios()) {
      Corpo corpo = corpos.computeIfAbsent(envio.evento().eventoId(), id -> corpo(envio.evento()));
      long espera = Math.max(0, Duration.between(agora, envio.quando()).toNanos());
      execucao.fila.add(
          new Tentativa(envio.evento().eventoId(), corpo, envio.copia(), 1, inicio + espera));
    }
    List<Thread> threads = new ArrayList<>(concorrencia);
    for (int i = 0; i < concorrencia; i++) {
      Thread thread = new Thread(execucao::trabalhar, "entregador-" + i);
      thread.setDaemon(true);
      thread.start();
      threads.add(thread);
    }
    try {
      if (!execucao.fim.await(prazo.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn(
            "delivery deadline of {} passed with {} copies unacknowledged",
            prazo,
            execucao.pendentes.get());
      }
    } finally {
      execucao.parar = true;
      for (Thread thread : threads) {
        thread.join(timeout.toMillis() + 1000);
        if (thread.isAlive()) {
          thread.interrupt();
          thread.join(1000);
        }
      }
      for (Tentativa restante : execucao.fila) {
        registro.desistiu(restante.eventoId());
      }
      execucao.fila.clear();
    }
    return registro.resumo(Duration.ofNanos(System.nanoTime() - inicio).toMillis());
  }

  private Corpo corpo(EventoDaLoja evento) {
    byte[] bytes = formato.corpoDoWebhook(evento);
    return new Corpo(bytes, assinatura.daLoja(bytes));
  }

  private record Corpo(byte[] bytes, String assinatura) {}

  /** One attempt of one copy, due at {@code devidoEm} ({@link System#nanoTime()}). */
  private record Tentativa(String eventoId, Corpo corpo, int copia, int numero, long devidoEm)
      implements Delayed {

    @Override
    public long getDelay(TimeUnit unidade) {
      return unidade.convert(devidoEm - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed outra) {
      return Long.compare(devidoEm, ((Tentativa) outra).devidoEm);
    }
  }

  private final class Execucao {
    final DelayQueue<Tentativa> fila = new DelayQueue<>();
    final RegistroDeEntregas registro;
    final AtomicInteger pendentes;
    final CountDownLatch fim = new CountDownLatch(1);
    volatile boolean parar;

    Execucao(RegistroDeEntregas registro, int copias) {
      this.registro = registro;
      this.pendentes = new AtomicInteger(copias);
      if (copias == 0) {
        fim.countDown();
      }
    }

    void trabalhar() {
      while (!parar) {
        Tentativa tentativa;
        try {
          tentativa = fila.poll(100, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          return;
        }
        if (tentativa != null && !enviar(tentativa)) {
          fila.add(tentativa); // interrupted while stopping: left for the final tally
          return;
        }
      }
    }

    /** False when interrupted before an answer. */
    boolean enviar(Tentativa tentativa) {
      registro.enviando(tentativa.eventoId(), tentativa.copia(), tentativa.numero());
      HttpRequest requisicao =
          HttpRequest.newBuilder(destino)
              .timeout(timeout)
              .header("Content-Type", "application/json")
              .header(AssinaturaDeWebhook.CABECALHO_DA_LOJA, tentativa.corpo().assinatura())
              .POST(HttpRequest.BodyPublishers.ofByteArray(tentativa.corpo().bytes()))
              .build();
      int status;
      try {
        status = http.send(requisicao, HttpResponse.BodyHandlers.discarding()).statusCode();
      } catch (IOException e) {
        status = -1; // no answer in time, refused connection, reset: all mean "try again"
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      if (status >= 200 && status < 300) {
        registro.confirmado(tentativa.eventoId());
        concluir();
      } else if (status >= 400 && status < 500 && status != 408 && status != 429) {
        log.warn("evento_id={} refused with {}; not redelivered", tentativa.eventoId(), status);
        registro.recusado(tentativa.eventoId(), status);
        concluir();
      } else {
        registro.falhou();
        fila.add(
            new Tentativa(
                tentativa.eventoId(),
                tentativa.corpo(),
                tentativa.copia(),
                tentativa.numero() + 1,
                System.nanoTime() + espera(tentativa.numero()).toNanos()));
      }
      return true;
    }

    private void concluir() {
      if (pendentes.decrementAndGet() == 0) {
        fim.countDown();
      }
    }
  }

  /** Exponential, capped, with jitter so that a burst of failures does not come back as one. */
  private Duration espera(int falhas) {
    long base = reenvioInicial.toMillis() << Math.min(falhas - 1, 20);
    long teto = Math.min(Math.max(base, 1), reenvioMaximo.toMillis());
    return Duration.ofMillis(teto / 2 + ThreadLocalRandom.current().nextLong(teto / 2 + 1));
  }
}
