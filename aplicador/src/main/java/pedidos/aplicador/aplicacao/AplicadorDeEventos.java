package pedidos.aplicador.aplicacao;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.AplicadorProperties;
import pedidos.contrato.MascaraDeEmail;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.Efeito;
import pedidos.dominio.Escrita;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.PoliticaDeAplicacao;

/**
 * Applies one stored event, in one transaction: the single path that the Kafka listener, the sweep,
 * reconciliation and replay all take. It reads the order under its lock ({@link LeitorDoPedido}),
 * asks the domain's policy what to write ({@link PoliticaDeAplicacao}) and writes it ({@link
 * GravadorDaAplicacao}): two round trips and the commit.
 *
 * <p>The only lock is the order's advisory lock. The seed locked the event row ({@code FOR UPDATE
 * SKIP LOCKED}), but an apply here also rewrites the results of the order's other facts, so two
 * applies of the same order holding one row each would deadlock. Under the advisory lock no one
 * else writes the order's rows, and an apply of the same event that waited finds it applied and
 * does nothing, which is what SKIP LOCKED gave the seed.
 */
@Component
public class AplicadorDeEventos {

  private static final Logger log = LoggerFactory.getLogger(AplicadorDeEventos.class);

  private final LeitorDoPedido leitor;
  private final GravadorDaAplicacao gravador;
  private final TransactionTemplate transacao;

  AplicadorDeEventos(
      JdbcClient jdbc,
      NamedParameterJdbcTemplate pipeline,
      TransactionTemplate transacao,
      AplicadorProperties propriedades) {
    this.leitor = new LeitorDoPedido(pipeline, propriedades.esperaPorLock());
    this.gravador = new GravadorDaAplicacao(jdbc);
    this.transacao = transacao;
  }

  /**
   * Applies the stored event in a transaction of its own.
   *
   * @return what was done; empty when the event is not stored, or already applied and the mode does
   *     not re-apply, or its order is busy and the mode does not wait
   */
  public Optional<EventoAplicado> aplicar(String eventoId, ModoDeAplicacao modo) {
    return transacao.execute(status -> aplicarNaTransacao(eventoId, modo));
  }

  /**
   * The same, inside the caller's transaction, for callers that store the event first (replay) so
   * that storing and applying commit together.
   */
  public Optional<EventoAplicado> aplicarNaTransacao(String eventoId, ModoDeAplicacao modo) {
    return aplicarNaTransacao(null, eventoId, modo, null);
  }

  /** The same, for replay: the record's position is stored on the row it applies. */
  public Optional<EventoAplicado> aplicarNaTransacao(
      String eventoId, ModoDeAplicacao modo, PosicaoNoTopico posicao) {
    return aplicarNaTransacao(null, eventoId, modo, posicao);
  }

  /**
   * The listener's apply, inside its transaction: stores the record's event if the inbox lacks it
   * (so that a replay after a restore rebuilds the inbox; the receptor's row, when present, wins),
   * in the same round trip as the lock and the read.
   */
  public Optional<EventoAplicado> guardarEAplicarNaTransacao(
      RegistroDeEvento evento, ModoDeAplicacao modo) {
    return aplicarNaTransacao(evento, evento.eventoId(), modo, null);
  }

  /**
   * The same, storing where the record was read on the row it applies (the order's page shows it).
   * An event that another path applied first keeps no position: the apply writes nothing.
   */
  public Optional<EventoAplicado> guardarEAplicarNaTransacao(
      RegistroDeEvento evento, ModoDeAplicacao modo, PosicaoNoTopico posicao) {
    return aplicarNaTransacao(evento, evento.eventoId(), modo, posicao);
  }

  /**
   * Before applying the facts of several orders in one transaction: takes their locks in one fixed
   * order, so that two such transactions never deadlock. Each apply then holds its lock already.
   */
  public void travarPedidosNaTransacao(Collection<String> pedidoIds) {
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException("locking orders needs an open transaction");
    }
    leitor.travarEmOrdem(pedidoIds);
  }

  private Optional<EventoAplicado> aplicarNaTransacao(
      RegistroDeEvento guardar, String eventoId, ModoDeAplicacao modo, PosicaoNoTopico posicao) {
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException("applying an event needs an open transaction");
    }
    var lido = leitor.travarELer(guardar, eventoId, modo.esperaPeloPedido()).orElse(null);
    if (lido == null || lido.evento() == null) {
      return Optional.empty();
    }
    String pedidoId = lido.pedidoId();
    Escrita escrita =
        PoliticaDeAplicacao.decidir(lido.estado(), lido.outros(), lido.evento(), modo);
    if (escrita instanceof Escrita.Assentar assentar) {
      gravador.assentar(assentar, posicao);
      log.info(
          "evento_id={} pedido_id={} settled as {}: {}",
          eventoId,
          pedidoId,
          assentar.resultado().codigo(),
          // The reason may quote the field it could not read: an email.
          MascaraDeEmail.mascararNoTexto(assentar.motivo()));
      return Optional.of(new EventoAplicado(eventoId, pedidoId, assentar.resultado(), List.of()));
    }
    if (escrita instanceof Escrita.Gravar gravar) {
      List<Efeito> gravados = gravador.gravar(pedidoId, gravar, posicao);
      log.debug(
          "evento_id={} pedido_id={} {} -> {} ({}), effects {}",
          eventoId,
          pedidoId,
          lido.estado() == null ? null : lido.estado().status().codigo(),
          gravar.estado().status().codigo(),
          gravar.resultado().codigo(),
          gravados);
      return Optional.of(new EventoAplicado(eventoId, pedidoId, gravar.resultado(), gravados));
    }
    return Optional.empty(); // Escrita.Nada
  }
}
