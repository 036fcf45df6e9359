package pedidos.receptor.gravacao;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;
import pedidos.receptor.evento.EventoRecebido;

/**
 * One insert and one commit per request, on the request's own thread.
 *
 * <p>At most {@code vagas} requests write at once, fewer than the pool's connections: the others
 * wait their turn here, up to {@code esperaPelaGravacao}. Waiting in the pool instead would mix up
 * "busy" with "down", since the pool's short connection timeout is there to notice a database that
 * is gone.
 */
final class GravadorDireto implements Gravador {

  private final GravacaoDeLote gravacao;
  private final Semaphore vagas;
  private final Duration espera;

  GravadorDireto(GravacaoDeLote gravacao, int vagas, Duration espera) {
    this.gravacao = gravacao;
    this.vagas = new Semaphore(vagas, true);
    this.espera = espera;
  }

  @Override
  public Desfecho gravar(EventoRecebido evento) {
    try {
      if (!vagas.tryAcquire(espera.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new Recusa(TipoDeRecusa.BANCO_INDISPONIVEL, "Too many events waiting to be stored.");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Recusa(
          TipoDeRecusa.BANCO_INDISPONIVEL, "Interrupted while waiting to store the event.", e);
    }
    try {
      Pendente pendente = new Pendente(evento);
      gravacao.gravar(List.of(pendente));
      // Already completed: gravar never returns with an event pending.
      return pendente.aguardar(Duration.ZERO);
    } finally {
      vagas.release();
    }
  }
}
