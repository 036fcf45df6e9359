package pedidos.aplicador.aplicacao;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.contrato.MascaraDeEmail;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.Efeito;
import pedidos.dominio.Escrita;
import pedidos.dominio.EstadoDoPedido;
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
  private final WebhooksNaoEntregues naoEntregues;
  private final AplicacaoEmLote emLote;

  AplicadorDeEventos(
      JdbcClient jdbc,
      NamedParameterJdbcTemplate pipeline,
      TransactionTemplate transacao,
      AplicadorProperties propriedades,
      MetricasDoAplicador metricas) {
    this.leitor = new LeitorDoPedido(pipeline, propriedades.esperaPorLock());
    this.gravador = new GravadorDaAplicacao(jdbc);
    this.transacao = transacao;
    this.naoEntregues = new WebhooksNaoEntregues(jdbc, metricas);
    this.emLote =
        new AplicacaoEmLote(
            new LeitorDoLote(pipeline, propriedades.esperaPorLock()),
            new GravadorDoLote(jdbc),
            naoEntregues);
  }

  /**
   * Applies the stored event in a transaction of its own (the sweep, reconciliation).
   *
   * @return what was done; empty when the event is not stored, or already applied and the mode does
   *     not re-apply, or its order is busy and the mode does not wait
   */
  public Optional<EventoAplicado> aplicar(String eventoId, ModoDeAplicacao modo) {
    return transacao.execute(status -> aplicarNaTransacao(eventoId, modo));
  }

  /**
   * The same, inside the caller's transaction: an event the inbox holds, whose stored position in
   * the topic, if any, stays as it is.
   */
  public Optional<EventoAplicado> aplicarNaTransacao(String eventoId, ModoDeAplicacao modo) {
    exigirTransacao("applying an event");
    return leitor
        .travarELer(eventoId, modo.esperaPeloPedido())
        .flatMap(lido -> escrever(lido, modo, Optional.empty()));
  }

  /**
   * The same for a record read from {@code loja.eventos} whose event the caller stored in this
   * transaction already (replay, which counts what it restored): stores where the record was read
   * on the row it applies, without storing the event a second time.
   */
  public Optional<EventoAplicado> aplicarNaTransacao(
      String eventoId, PosicaoNoTopico posicao, ModoDeAplicacao modo) {
    exigirTransacao("applying an event");
    return leitor
        .travarELer(eventoId, modo.esperaPeloPedido())
        .flatMap(lido -> escrever(lido, modo, Optional.of(posicao)));
  }

  /**
   * A record read from {@code loja.eventos} (the listener, replay), inside the caller's
   * transaction: stores its event if the inbox lacks it (so that a replay after a restore rebuilds
   * the inbox; the receptor's row, when present, wins), in the same round trip as the lock and the
   * read, and stores where the record was read on the row it applies (the order's page shows it).
   * An event that another path applied first keeps no position: the apply writes nothing.
   */
  public Optional<EventoAplicado> guardarEAplicarNaTransacao(
      RegistroDeEvento evento, PosicaoNoTopico posicao, ModoDeAplicacao modo) {
    exigirTransacao("applying an event");
    return leitor
        .guardarTravarELer(evento, modo.esperaPeloPedido())
        .flatMap(lido -> escrever(lido, modo, Optional.of(posicao)));
  }

  /**
   * The listener's records of one poll, several orders' among them, inside the caller's transaction
   * and in {@link ModoDeAplicacao#NORMAL}: each applied as {@link #guardarEAplicarNaTransacao}
   * would, one after another, leaving what that would leave and returning what it would return, in
   * two round trips for them all ({@link AplicacaoEmLote}). Their orders' locks are taken in one
   * fixed order before anything of them is read.
   *
   * <p>A sub-batch with a fact of the store's API goes the one-apply-after-another way inside the
   * transaction: judging such a fact ({@link WebhooksNaoEntregues}) reads the order's inbox as the
   * records before it left it, which storing every record first would change. The listener meets
   * them only after a restore (reconciliation applies its facts before the relay publishes them).
   *
   * @return what each record did, in their order; a record that changed nothing has none
   */
  public List<EventoAplicado> guardarEAplicarJuntosNaTransacao(List<RegistroNoTopico> registros) {
    exigirTransacao("applying events");
    if (registros.stream().noneMatch(r -> WebhooksNaoEntregues.daApi(r.evento().eventoId()))) {
      return emLote.aplicar(registros);
    }
    travarPedidosNaTransacao(registros.stream().map(r -> r.evento().recursoId()).toList());
    List<EventoAplicado> aplicados = new ArrayList<>(registros.size());
    for (RegistroNoTopico registro : registros) {
      try (var pedido = MDC.putCloseable("pedido_id", registro.evento().recursoId());
          var id = MDC.putCloseable("evento_id", registro.evento().eventoId())) {
        guardarEAplicarNaTransacao(registro.evento(), registro.posicao(), ModoDeAplicacao.NORMAL)
            .ifPresent(aplicados::add);
      }
    }
    return aplicados;
  }

  /**
   * Before applying the facts of several orders in one transaction: takes their locks in one fixed
   * order, so that two such transactions never deadlock. Each apply then holds its lock already.
   */
  public void travarPedidosNaTransacao(Collection<String> pedidoIds) {
    exigirTransacao("locking orders");
    leitor.travarEmOrdem(pedidoIds);
  }

  /** What the policy decides for the event read, stored: one case per kind of write. */
  private Optional<EventoAplicado> escrever(
      LeitorDoPedido.PedidoLido lido, ModoDeAplicacao modo, Optional<PosicaoNoTopico> posicao) {
    if (lido.evento() == null) {
      return Optional.empty();
    }
    naoEntregues.julgar(lido.pedidoId(), lido.evento(), lido.outros());
    Escrita escrita =
        PoliticaDeAplicacao.decidir(lido.estado(), lido.outros(), lido.evento(), modo);
    return switch (TipoDeEscrita.de(escrita)) {
      case NADA -> Optional.empty();
      case ASSENTAR -> Optional.of(assentar(lido, (Escrita.Assentar) escrita, posicao));
      case GRAVAR -> Optional.of(gravar(lido, (Escrita.Gravar) escrita, posicao));
    };
  }

  private EventoAplicado assentar(
      LeitorDoPedido.PedidoLido lido,
      Escrita.Assentar assentar,
      Optional<PosicaoNoTopico> posicao) {
    gravador.assentar(assentar, posicao);
    return assentado(lido.pedidoId(), assentar);
  }

  private EventoAplicado gravar(
      LeitorDoPedido.PedidoLido lido, Escrita.Gravar gravar, Optional<PosicaoNoTopico> posicao) {
    List<Efeito> gravados = gravador.gravar(lido.pedidoId(), gravar, posicao);
    return gravado(lido.pedidoId(), lido.estado(), gravar, gravados);
  }

  /** A settled event as every apply reports and logs it, alone or in a sub-batch. */
  static EventoAplicado assentado(String pedidoId, Escrita.Assentar assentar) {
    log.info(
        "evento_id={} pedido_id={} settled as {}: {}",
        assentar.eventoId(),
        pedidoId,
        assentar.resultado().codigo(),
        // The reason may quote the field it could not read: an email.
        MascaraDeEmail.mascararNoTexto(assentar.motivo()));
    return new EventoAplicado(assentar.eventoId(), pedidoId, assentar.resultado(), List.of());
  }

  /**
   * A written event as every apply reports and logs it, alone or in a sub-batch.
   *
   * @param antes the order as the event found it; {@code null} before its first apply
   * @param gravados the effects the outbox did not hold: those this event bore
   */
  static EventoAplicado gravado(
      String pedidoId, EstadoDoPedido antes, Escrita.Gravar gravar, List<Efeito> gravados) {
    log.debug(
        "evento_id={} pedido_id={} {} -> {} ({}), effects {}",
        gravar.eventoId(),
        pedidoId,
        antes == null ? null : antes.status().codigo(),
        gravar.estado().status().codigo(),
        gravar.resultado().codigo(),
        gravados);
    return new EventoAplicado(gravar.eventoId(), pedidoId, gravar.resultado(), gravados);
  }

  private static void exigirTransacao(String oQue) {
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException(oQue + " needs an open transaction");
    }
  }
}
