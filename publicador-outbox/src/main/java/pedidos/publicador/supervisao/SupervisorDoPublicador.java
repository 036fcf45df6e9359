package pedidos.publicador.supervisao;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import pedidos.contrato.MascaraDeEmail;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.publicador.entrega.EntregaDosEfeitos;
import pedidos.publicador.envio.TopicosDoPublicador;
import pedidos.publicador.metricas.MetricasDoPublicador;
import pedidos.publicador.motor.EstadoDoMotor;
import pedidos.publicador.motor.ExecucaoDoMotor;
import pedidos.publicador.motor.MotorDoPublicador;

/**
 * Keeps the relay running for as long as the application runs: takes the lease (or waits for it as
 * a standby), starts the engine, and restarts it with a back-off whenever it stops (Kafka down, the
 * database gone, a record Kafka would not take).
 *
 * <p>Tied to the Spring lifecycle: it starts after every other bean is ready and stops first, so
 * the engine is closed before the pool, the producer or the database go away. All the work happens
 * on one thread of its own; {@link #stop()} waits for it.
 */
@Component
public class SupervisorDoPublicador implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(SupervisorDoPublicador.class);
  // Above the producer's delivery timeout: a batch waiting for a dead Kafka finishes failing first.
  private static final Duration ESPERA_DA_PARADA_DO_MOTOR = Duration.ofSeconds(60);
  // An engine whose lease is lost sends nothing more (the fence, and its run is marked stopping),
  // but stopping it may take up to Debezium's socket timeout (20 s, ConfiguracaoDoDebezium) when
  // its replication stream went silent. The relay does not wait for that: past this it competes
  // for the lease again, and the old engine can only end (the next holder ends its walsender; an
  // offset it still stores is older than the new engine's, which replays a little, never skips).
  private static final Duration ESPERA_DA_PARADA_SEM_TRAVA = Duration.ofSeconds(5);

  private final TravaDoPublicador trava;
  private final MotorDoPublicador motor;
  private final TopicosDoPublicador topicos;
  private final MetricasDoPublicador metricas;
  private final PublicadorProperties propriedades;
  private final DataSource pool;
  private final Clock clock;
  private final EntregaDosEfeitos entrega;

  private final Object monitor = new Object();
  private Thread linha;
  private AtomicBoolean pararEstaExecucao;

  // Woken on a stop request and when an engine ends, so neither waits for a full interval.
  private final Object despertador = new Object();

  private volatile Papel papel = Papel.PARADO;
  private volatile EstadoDoMotor estado = EstadoDoMotor.PARADO;
  private volatile Instant desde;
  private volatile String ultimaFalha;
  private volatile Instant transmitindoDesde;
  // From an engine's failure until an engine streams again: the relay is not doing its job.
  private volatile boolean emFalha;
  private final AtomicInteger execucoes = new AtomicInteger();
  private final AtomicInteger falhas = new AtomicInteger();

  SupervisorDoPublicador(
      TravaDoPublicador trava,
      MotorDoPublicador motor,
      TopicosDoPublicador topicos,
      MetricasDoPublicador metricas,
      PublicadorProperties propriedades,
      DataSource pool,
      Clock clock,
      EntregaDosEfeitos entrega) {
    this.trava = trava;
    this.motor = motor;
    this.topicos = topicos;
    this.metricas = metricas;
    this.propriedades = propriedades;
    this.pool = pool;
    this.clock = clock;
    this.entrega = entrega;
    this.desde = clock.instant();
  }

  @Override
  public void start() {
    synchronized (monitor) {
      if (linha != null) {
        return;
      }
      AtomicBoolean parar = new AtomicBoolean();
      pararEstaExecucao = parar;
      // Named after the topic prefix, like Debezium's own threads: two relays in one JVM (tests)
      // tell their logs apart.
      linha =
          new Thread(() -> supervisionar(parar), "publicador-supervisor-" + propriedades.prefixo());
      linha.start();
    }
  }

  @Override
  public void stop() {
    Thread parando;
    synchronized (monitor) {
      parando = linha;
      if (parando == null) {
        return;
      }
      pararEstaExecucao.set(true);
    }
    acordar();
    try {
      parando.join(ESPERA_DA_PARADA_DO_MOTOR.plusSeconds(10).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (parando.isAlive()) {
      log.warn("The relay supervisor did not stop in time; leaving it to finish on its own");
    }
    synchronized (monitor) {
      if (linha == parando) {
        linha = null;
      }
    }
  }

  @Override
  public boolean isAutoStartup() {
    return propriedades.transmitir();
  }

  @Override
  public boolean isRunning() {
    synchronized (monitor) {
      return linha != null;
    }
  }

  // Synchronized with tornar(): the engine's thread and the supervisor's both change the state, and
  // a reader must never see the role of one moment with the engine state of another.
  public synchronized Situacao situacao() {
    return new Situacao(
        papel,
        estado,
        desde,
        emFalha,
        execucoes.get(),
        falhas.get(),
        ultimaFalha,
        trava.perdas(),
        trava.perdidaEm());
  }

  private void supervisionar(AtomicBoolean parar) {
    PublicadorProperties.Reinicio reinicio = propriedades.reinicio();
    Duration espera = reinicio.inicial();
    try {
      while (!parar.get() && !Thread.currentThread().isInterrupted()) {
        if (!trava.tentarAdquirir()) {
          if (papel != Papel.RESERVA) {
            log.info("Standing by: another relay holds the slot {}", propriedades.slot());
          }
          tornar(Papel.RESERVA, EstadoDoMotor.PARADO);
          cochilar(propriedades.trava().intervalo(), parar::get);
          continue;
        }
        if (papel != Papel.ATIVO) {
          log.info("Took the lease of the slot {}: relaying", propriedades.slot());
        }
        switch (executar(parar)) {
          case PARADA_PEDIDA -> {}
          case TRAVA_PERDIDA -> {
            emFalha = false; // another instance's job now
            tornar(Papel.RESERVA, EstadoDoMotor.PARADO);
          }
          case MOTOR_PAROU -> {
            falhas.incrementAndGet();
            metricas.reinicioDoMotor();
            // An engine that streamed for longer than the longest back-off was healthy: this is a
            // new incident, start the back-off anew. One that failed to start keeps backing off.
            Instant transmitiuDesde = transmitindoDesde;
            if (transmitiuDesde != null
                && Duration.between(transmitiuDesde, clock.instant()).compareTo(reinicio.maxima())
                    > 0) {
              espera = reinicio.inicial();
            }
            tornar(Papel.ATIVO, EstadoDoMotor.AGUARDANDO_REINICIO);
            log.warn("Restarting the Debezium engine in {}", espera);
            cochilar(espera, parar::get);
            espera = minimo(espera.multipliedBy(2), reinicio.maxima());
          }
        }
      }
    } catch (RuntimeException | Error e) {
      log.error(
          "The relay supervisor failed; the relay is stopped", MascaraDeEmail.mascararNaExcecao(e));
      ultimaFalha = MascaraDeEmail.mascararNoTexto(e.toString());
      throw e;
    } finally {
      trava.liberar();
      emFalha = false;
      tornar(Papel.PARADO, EstadoDoMotor.PARADO);
    }
  }

  private Desfecho executar(AtomicBoolean parar) {
    tornar(Papel.ATIVO, EstadoDoMotor.INICIANDO);
    execucoes.incrementAndGet();
    transmitindoDesde = null;
    ExecucaoDoMotor execucao;
    try {
      // A walsender of an earlier run may still hold the slot (its client gone or still stopping).
      trava.liberarOSlot();
      topicos.garantir();
      // A relay starting while delivery is paused must know it before its first batch.
      entrega.atualizar();
      execucao =
          motor.iniciar(
              () -> {
                transmitindoDesde = clock.instant();
                emFalha = false;
                // An engine still starting when the lease was lost does not make this one active.
                if (trava.adquirida()) {
                  tornar(Papel.ATIVO, EstadoDoMotor.TRANSMITINDO);
                }
              },
              trava::vigente);
    } catch (RuntimeException e) {
      registrarFalha(e);
      return Desfecho.MOTOR_PAROU;
    }
    execucao.fim().whenComplete((nada, erro) -> acordar());
    Duration esperaDaParada = ESPERA_DA_PARADA_DO_MOTOR;
    try {
      while (true) {
        if (parar.get() || Thread.currentThread().isInterrupted()) {
          return Desfecho.PARADA_PEDIDA;
        }
        // The lease first: an engine fenced off by a lost lease ends too, and that is not a failure
        // of its own.
        if (!trava.adquirida()) {
          // Another instance may take the slot once the server ends the old session: this engine
          // must go first. It already sends nothing (the fence, ConsumidorDeMudancas).
          log.warn(
              "Lost the lease of the slot {}: stopping the engine, then competing for the lease"
                  + " again",
              propriedades.slot());
          // Health tells the truth while the engine stops: this instance no longer relays.
          tornar(Papel.RESERVA, EstadoDoMotor.PARANDO);
          // The road to the database went bad: a pooled connection used just before would be
          // lent again unchecked and hang the next engine's first batch for its socket timeout.
          if (pool instanceof HikariDataSource hikari && hikari.getHikariPoolMXBean() != null) {
            hikari.getHikariPoolMXBean().softEvictConnections();
          }
          esperaDaParada = ESPERA_DA_PARADA_SEM_TRAVA;
          return Desfecho.TRAVA_PERDIDA;
        }
        if (execucao.fim().isDone()) {
          registrarFalha(causa(execucao.fim()));
          return Desfecho.MOTOR_PAROU;
        }
        cochilar(propriedades.trava().intervalo(), () -> parar.get() || execucao.fim().isDone());
      }
    } finally {
      execucao.parar(esperaDaParada);
    }
  }

  /**
   * Whether this instance may publish now: it relays and its lease was proven recently ({@link
   * TravaDoPublicador#vigente()}). The fallback and the stream both ask before each batch.
   */
  public boolean podePublicar() {
    return papel == Papel.ATIVO && trava.vigente();
  }

  private void registrarFalha(Throwable falha) {
    emFalha = true;
    // Shown in health details and logged: a failure's message may quote a row, with its email.
    ultimaFalha = MascaraDeEmail.mascararNoTexto(falha.toString());
    log.error("The Debezium engine stopped", MascaraDeEmail.mascararNaExcecao(falha));
  }

  private static Throwable causa(CompletableFuture<Void> fim) {
    try {
      fim.get();
      return new IllegalStateException("the engine stopped by itself");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e;
    }
  }

  private synchronized void tornar(Papel novoPapel, EstadoDoMotor novoEstado) {
    if (novoPapel != papel || novoEstado != estado) {
      papel = novoPapel;
      estado = novoEstado;
      desde = clock.instant();
      metricas.ativo(novoPapel == Papel.ATIVO);
    }
  }

  private void cochilar(Duration duracao, BooleanSupplier acordarSe) {
    long prazo = System.nanoTime() + duracao.toNanos();
    synchronized (despertador) {
      long restante;
      while (!acordarSe.getAsBoolean() && (restante = prazo - System.nanoTime()) > 0) {
        try {
          despertador.wait(Math.max(1, restante / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private void acordar() {
    synchronized (despertador) {
      despertador.notifyAll();
    }
  }

  private static Duration minimo(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private enum Desfecho {
    PARADA_PEDIDA,
    TRAVA_PERDIDA,
    MOTOR_PAROU
  }
}
