package pedidos.receptor.gravacao;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;
import pedidos.receptor.evento.EventoRecebido;

/** One request's event on its way to the database, and the slot for its own outcome. */
final class Pendente {

  private final EventoRecebido evento;
  private final CompletableFuture<Desfecho> desfecho = new CompletableFuture<>();

  Pendente(EventoRecebido evento) {
    this.evento = evento;
  }

  EventoRecebido evento() {
    return evento;
  }

  void concluir(Desfecho resultado) {
    desfecho.complete(resultado);
  }

  void falhar(Recusa recusa) {
    desfecho.completeExceptionally(recusa);
  }

  /** Runs once the outcome is known, on the thread that completes it. */
  void aoConcluir(Runnable acao) {
    desfecho.whenComplete((resultado, erro) -> acao.run());
  }

  boolean concluido() {
    return desfecho.isDone();
  }

  /** The outcome once the row is committed (or refused); 503 when it takes longer than allowed. */
  Desfecho aguardar(Duration limite) {
    try {
      return desfecho.get(limite.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Recusa recusa) {
        throw recusa;
      }
      throw new Recusa(
          TipoDeRecusa.BANCO_INDISPONIVEL, "The event could not be stored.", e.getCause());
    } catch (TimeoutException e) {
      throw new Recusa(
          TipoDeRecusa.BANCO_INDISPONIVEL,
          "The event was not stored within " + limite.toMillis() + " ms.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Recusa(TipoDeRecusa.BANCO_INDISPONIVEL, "Interrupted while storing the event.", e);
    }
  }
}
