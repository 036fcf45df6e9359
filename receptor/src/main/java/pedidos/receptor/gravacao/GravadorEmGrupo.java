package pedidos.receptor.gravacao;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import pedidos.receptor.ReceptorProperties;
import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;
import pedidos.receptor.evento.EventoRecebido;

/**
 * Group commit: request threads queue their event and wait; a few writer threads each take whatever
 * has queued up (up to {@code loteMaximo}) and store it with one statement and one commit. Each
 * request is answered with its own row's outcome, after that commit.
 *
 * <p>No timer decides when to write: a writer writes as soon as it is free, so an idle receptor
 * adds no latency, and under load the batch is what arrived while the previous one was committing.
 * {@code esperaMaxima} can make a writer linger for more rows; the default is not to.
 *
 * <p>Bounded everywhere: the queue, in events ({@code filaMaxima}) and in bytes ({@code
 * bytesNaFila}; full answers 503 {@code fila_cheia} at once), the batch, and each request's wait
 * ({@code esperaPelaGravacao}, then 503; the row may still commit, and the redelivery is a
 * duplicate). An event's bytes are counted from the moment it is queued until its batch is done,
 * not until its request stops waiting: a request that gave up leaves its event queued, and the
 * event's text is still in memory until it is written.
 *
 * <p>The rows of a batch share one transaction, so they share a commit LSN in the WAL; the CDC
 * relay must be safe with that (see docs on the relay's restart test).
 */
final class GravadorEmGrupo implements Gravador, SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(GravadorEmGrupo.class);

  /** Starts before the web server and stops after it has drained in-flight requests. */
  static final int FASE = WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 1024;

  private final GravacaoDeLote gravacao;
  private final ObservadorDoReceptor observador;
  private final int loteMaximo;
  private final int escritores;
  private final long esperaMaximaNanos;
  private final Duration esperaPelaGravacao;
  private final BlockingQueue<Pendente> fila;
  private final Semaphore bytesLivres;
  private final int limiteDeBytes;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean rodando;

  GravadorEmGrupo(
      GravacaoDeLote gravacao, ObservadorDoReceptor observador, ReceptorProperties propriedades) {
    this.gravacao = gravacao;
    this.observador = observador;
    ReceptorProperties.Gravacao configuracao = propriedades.gravacao();
    this.loteMaximo = configuracao.loteMaximo();
    this.escritores = configuracao.escritores();
    this.esperaMaximaNanos = configuracao.esperaMaxima().toNanos();
    this.esperaPelaGravacao = propriedades.esperaPelaGravacao();
    this.fila = new ArrayBlockingQueue<>(configuracao.filaMaxima());
    this.limiteDeBytes = configuracao.limiteDeBytesNaFila();
    this.bytesLivres = new Semaphore(limiteDeBytes);
    observador.observarFila(fila, bytesLivres, configuracao.limiteDeBytesNaFila());
  }

  @Override
  public Desfecho gravar(EventoRecebido evento) {
    if (!rodando) {
      throw new Recusa(TipoDeRecusa.BANCO_INDISPONIVEL, "The receptor is stopping.");
    }
    // The properties keep the bound above the largest body; min() only guards a direct caller.
    int bytes = Math.min(evento.json().length(), limiteDeBytes);
    if (!bytesLivres.tryAcquire(bytes)) {
      throw new Recusa(TipoDeRecusa.FILA_CHEIA, "Too many bytes of events waiting to be stored.");
    }
    Pendente pendente = new Pendente(evento);
    if (!fila.offer(pendente)) {
      bytesLivres.release(bytes);
      throw new Recusa(TipoDeRecusa.FILA_CHEIA, "Too many events waiting to be stored.");
    }
    pendente.aoConcluir(() -> bytesLivres.release(bytes));
    return pendente.aguardar(esperaPelaGravacao);
  }

  @Override
  public synchronized void start() {
    if (rodando) {
      return;
    }
    rodando = true;
    for (int i = 1; i <= escritores; i++) {
      Thread escritor = new Thread(this::escrever, "gravacao-em-grupo-" + i);
      escritor.setDaemon(true);
      escritor.start();
      threads.add(escritor);
    }
    log.info(
        "Group commit on: {} writer(s), batches of up to {} rows, waiting up to {} us for more",
        escritores,
        loteMaximo,
        TimeUnit.NANOSECONDS.toMicros(esperaMaximaNanos));
  }

  @Override
  public synchronized void stop() {
    if (!rodando) {
      return;
    }
    // Writers finish what is queued, then exit.
    rodando = false;
    for (Thread escritor : threads) {
      try {
        escritor.join(esperaPelaGravacao.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    threads.clear();
    List<Pendente> restantes = new ArrayList<>();
    fila.drainTo(restantes);
    Recusa recusa = new Recusa(TipoDeRecusa.BANCO_INDISPONIVEL, "The receptor is stopping.");
    restantes.forEach(pendente -> pendente.falhar(recusa));
  }

  @Override
  public boolean isRunning() {
    return rodando;
  }

  @Override
  public int getPhase() {
    return FASE;
  }

  private void escrever() {
    List<Pendente> lote = new ArrayList<>(loteMaximo);
    while (true) {
      Pendente primeiro;
      try {
        primeiro = fila.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (primeiro == null) {
        if (!rodando) {
          return;
        }
        continue;
      }
      lote.add(primeiro);
      fila.drainTo(lote, loteMaximo - 1);
      if (esperaMaximaNanos > 0) {
        completar(lote);
      }
      gravacao.gravar(lote);
      lote.clear();
    }
  }

  private void completar(List<Pendente> lote) {
    long limite = System.nanoTime() + esperaMaximaNanos;
    while (lote.size() < loteMaximo) {
      long falta = limite - System.nanoTime();
      if (falta <= 0) {
        return;
      }
      Pendente mais;
      try {
        mais = fila.poll(falta, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (mais == null) {
        return;
      }
      lote.add(mais);
      fila.drainTo(lote, loteMaximo - lote.size());
    }
  }
}
