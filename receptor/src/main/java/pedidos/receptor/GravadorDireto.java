package pedidos.receptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import pedidos.receptor.Recusa.BancoIndisponivel;

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
  private final EnsaioDaGravacao ensaio;
  private final Semaphore vagas;
  private final Duration espera;

  GravadorDireto(GravacaoDeLote gravacao, EnsaioDaGravacao ensaio, int vagas, Duration espera) {
    this.gravacao = gravacao;
    this.ensaio = ensaio;
    this.vagas = new Semaphore(vagas, true);
    this.espera = espera;
  }

  @Override
  public Desfecho gravar(EventoRecebido evento) {
    return gravar(evento, false);
  }

  @Override
  public Desfecho ensaiar(EventoRecebido evento) {
    return gravar(evento, true);
  }

  private Desfecho gravar(EventoRecebido evento, boolean doEnsaio) {
    try {
      if (!vagas.tryAcquire(espera.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new BancoIndisponivel("Too many events waiting to be stored.", null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BancoIndisponivel("Interrupted while waiting to store the event.", e);
    }
    try {
      Pendente pendente = new Pendente(evento, doEnsaio);
      if (doEnsaio) {
        ensaio.gravar(List.of(pendente));
      } else {
        gravacao.gravar(List.of(pendente));
      }
      // Already completed: gravar never returns with an event pending.
      return pendente.aguardar(Duration.ZERO);
    } finally {
      vagas.release();
    }
  }
}
