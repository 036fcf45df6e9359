package pedidos.simulador;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
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
 * so it is not sent again. Each sender has one keep-alive connection ({@link ConexaoHttp}): the
 * JDK's HttpClient cost more CPU than the receptor itself at the pipeline's knee, on the same two
 * cores, and held the kill scenarios to a third of the rate they asked for.
 */
final class Entregador {

  static final String CAMINHO = "/webhooks/loja";

  private static final Logger log = LoggerFactory.getLogger(Entregador.class);

  private final InetSocketAddress endereco;
  private final String host;
  private final String caminho;
  private final AssinaturaDeWebhook assinatura;
  private final FormatoDaLoja formato = new FormatoDaLoja();
  private final int concorrencia;
  private final Duration timeout;
  private final Duration reenvioInicial;
  private final Duration reenvioMaximo;
  private final Clock relogio;

  /**
   * @param receptor the receptor's base URL, plain {@code http}; events go to {@value #CAMINHO}
   *     under it
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
    if (!"http".equals(receptor.getScheme()) || receptor.getHost() == null) {
      throw new IllegalArgumentException(
          "the receptor's URL must be http://host:port, not " + receptor);
    }
    this.host = receptor.getHost();
    int porta = receptor.getPort() < 0 ? 80 : receptor.getPort();
    this.endereco = new InetSocketAddress(host, porta);
    String base = receptor.getRawPath() == null ? "" : receptor.getRawPath();
    this.caminho = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + CAMINHO;
    this.assinatura = assinatura;
    this.concorrencia = concorrencia;
    this.timeout = timeout;
    this.reenvioInicial = reenvioInicial;
    this.reenvioMaximo = reenvioMaximo;
    this.relogio = relogio;
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
    return new Corpo(
        ConexaoHttp.requisicao(host, endereco.getPort(), caminho, assinatura.daLoja(bytes), bytes));
  }

  /** The whole signed request, built once for every copy and attempt. */
  private record Corpo(byte[] requisicao) {}

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
      try (var conexao = new ConexaoHttp(endereco, timeout)) {
        while (!parar) {
          Tentativa tentativa;
          try {
            tentativa = fila.poll(100, TimeUnit.MILLISECONDS);
          } catch (InterruptedException e) {
            return;
          }
          if (tentativa != null) {
            enviar(conexao, tentativa);
          }
        }
      }
    }

    void enviar(ConexaoHttp conexao, Tentativa tentativa) {
      registro.enviando(tentativa.eventoId(), tentativa.copia(), tentativa.numero());
      int status;
      try {
        status = conexao.enviar(tentativa.corpo().requisicao());
      } catch (IOException | RuntimeException e) {
        // No answer in time, refused connection, reset, a garbled answer: all mean "try again".
        status = -1;
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
