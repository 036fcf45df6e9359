package pedidos.publicador.motor;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One run of a Debezium engine, from its start to its end; never restarted (a new one is made). */
public final class ExecucaoDoMotor {

  private static final Logger log = LoggerFactory.getLogger(ExecucaoDoMotor.class);
  private static final long FATIA_DA_ESPERA_MS = 100;

  private final DebeziumEngine<RecordChangeEvent<SourceRecord>> motor;
  private final CompletableFuture<Void> fim;
  private final AtomicBoolean parando;

  ExecucaoDoMotor(
      DebeziumEngine<RecordChangeEvent<SourceRecord>> motor,
      CompletableFuture<Void> fim,
      AtomicBoolean parando) {
    this.motor = motor;
    this.fim = fim;
    this.parando = parando;
  }

  /** Completes when the engine stopped: normally after {@link #parar}, exceptionally on failure. */
  public CompletableFuture<Void> fim() {
    return fim;
  }

  /**
   * Stops the engine and waits for it, at most {@code limite}. The engine refuses to close while
   * its tasks are starting (it would leak their connections), so closing is retried until it is
   * accepted or the engine ended by itself. Closing blocks until the tasks stop, which takes as
   * long as a silent replication stream keeps its socket, so it runs on a thread of its own: the
   * caller is back within the limit whatever the network does, and the engine ends on its own
   * later.
   */
  public void parar(Duration limite) {
    parando.set(true);
    long prazo = System.nanoTime() + limite.toNanos();
    Thread fechamento = new Thread(() -> fechar(prazo), "publicador-parada-motor");
    fechamento.setDaemon(true);
    fechamento.start();
    long restante = TimeUnit.NANOSECONDS.toMillis(prazo - System.nanoTime());
    if (!aguardarFim(Math.max(restante, 0))) {
      log.warn("The Debezium engine did not stop within {}; it goes on stopping alone", limite);
    }
  }

  private void fechar(long prazo) {
    while (!fim.isDone() && System.nanoTime() - prazo < 0) {
      try {
        motor.close();
        return;
      } catch (IllegalStateException e) {
        // Tasks starting, or already stopping: wait a little and look again.
        log.debug("Engine not ready to close yet: {}", e.getMessage());
      } catch (IOException e) {
        log.warn("Error closing the Debezium engine", e);
        return;
      }
      if (aguardarFim(FATIA_DA_ESPERA_MS)) {
        return;
      }
    }
  }

  private boolean aguardarFim(long ms) {
    try {
      fim.get(ms, TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException e) {
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fim.isDone();
    }
  }
}
