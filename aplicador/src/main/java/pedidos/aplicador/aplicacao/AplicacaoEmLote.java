package pedidos.aplicador.aplicacao;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.MDC;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.Efeito;
import pedidos.dominio.Escrita;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.EventoGravado;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.PoliticaDeAplicacao;
import pedidos.dominio.Resultado;

/**
 * The listener's records of one sub-batch applied together, in the caller's transaction, with what
 * applying them one transaction after another would leave, in two round trips instead of two per
 * record: one to store, lock and read ({@link LeitorDoLote}), one to write ({@link
 * GravadorDoLote}).
 *
 * <p>Between them each record is decided, in offset order, by the one policy ({@link
 * PoliticaDeAplicacao}) on its order as the records before it left it: the state, the facts now
 * applied with their verdicts, the verdicts corrected. That carry-over is all this class adds; it
 * is what the database would have answered the next record's read. What the records wrote is then
 * collapsed to one row per key, since one statement cannot update a row twice: each order's final
 * row, each inbox row's final verdict, and each effect once, born with the snapshot the policy gave
 * it at the record that bore it (a later record bearing the same effect of the same order would
 * have met the outbox's key, as it does here).
 */
final class AplicacaoEmLote {

  private final LeitorDoLote leitor;
  private final GravadorDoLote gravador;
  private final WebhooksNaoEntregues naoEntregues;

  AplicacaoEmLote(LeitorDoLote leitor, GravadorDoLote gravador, WebhooksNaoEntregues naoEntregues) {
    this.leitor = leitor;
    this.gravador = gravador;
    this.naoEntregues = naoEntregues;
  }

  /** One order as the records applied so far left it, in memory. */
  private static final class PedidoNoLote {
    final String pedidoId;
    EstadoDoPedido estado;
    final Map<String, EventoGravado> eventos = new LinkedHashMap<>();
    final Set<Efeito> nascidos = new HashSet<>();
    boolean gravado;

    PedidoNoLote(String pedidoId, EstadoDoPedido estado, List<EventoGravado> eventos) {
      this.pedidoId = pedidoId;
      this.estado = estado;
      eventos.forEach(e -> this.eventos.put(e.eventoId(), e));
    }

    /** What {@link LeitorDoPedido#LER_PEDIDO} would read now as the order's other facts. */
    List<EventoGravado> outros(String eventoId) {
      List<EventoGravado> outros = new ArrayList<>(eventos.size());
      for (EventoGravado evento : eventos.values()) {
        if (evento.aplicado()
            && !Resultado.FALHA_DE_APLICACAO.codigo().equals(evento.resultado())
            && !evento.eventoId().equals(eventoId)) {
          outros.add(evento);
        }
      }
      return outros;
    }

    void veredicto(String eventoId, Resultado resultado) {
      EventoGravado antes = eventos.get(eventoId);
      eventos.put(
          eventoId, new EventoGravado(eventoId, antes.interpretacao(), true, resultado.codigo()));
    }
  }

  /** A record's decision, kept until the write says which of its effects were new. */
  private record Decidido(String pedidoId, EstadoDoPedido antes, Escrita escrita) {}

  /**
   * @param registros in offset order, all read in {@link ModoDeAplicacao#NORMAL}; none an API fact
   *     ({@link WebhooksNaoEntregues#daApi}), whose judgement reads the inbox as the records before
   *     it left it
   * @return what each record did, in their order; a record that changed nothing has none
   */
  List<EventoAplicado> aplicar(List<RegistroNoTopico> registros) {
    Map<String, RegistroDeEvento> unicos = new LinkedHashMap<>();
    registros.forEach(r -> unicos.putIfAbsent(r.evento().eventoId(), r.evento()));
    LeitorDoLote.LoteLido lido = leitor.guardarTravarELer(List.copyOf(unicos.values()));

    Map<String, PedidoNoLote> pedidos = new HashMap<>();
    lido.eventos()
        .forEach(
            (pedidoId, eventos) ->
                pedidos.put(
                    pedidoId, new PedidoNoLote(pedidoId, lido.estados().get(pedidoId), eventos)));
    Map<String, GravadorDoLote.LinhaDoEvento> linhas = new LinkedHashMap<>();
    List<GravadorDoLote.EfeitoNascido> nascidos = new ArrayList<>();
    List<Decidido> decididos = new ArrayList<>(registros.size());

    for (RegistroNoTopico registro : registros) {
      String eventoId = registro.evento().eventoId();
      String pedidoId = lido.pedidoDoEvento().get(eventoId);
      if (pedidoId == null) {
        continue; // stored by the first statement: never, but one apply would do nothing too
      }
      PedidoNoLote pedido = pedidos.get(pedidoId);
      EventoGravado evento = pedido.eventos.get(eventoId);
      Escrita escrita;
      try (var p = MDC.putCloseable("pedido_id", pedidoId);
          var e = MDC.putCloseable("evento_id", eventoId)) {
        List<EventoGravado> outros = pedido.outros(eventoId);
        naoEntregues.julgar(pedidoId, evento, outros);
        escrita =
            PoliticaDeAplicacao.decidir(pedido.estado, outros, evento, ModoDeAplicacao.NORMAL);
      }
      EstadoDoPedido antes = pedido.estado;
      switch (TipoDeEscrita.de(escrita)) {
        case NADA -> {
          continue;
        }
        case ASSENTAR -> {
          var assentar = (Escrita.Assentar) escrita;
          pedido.veredicto(eventoId, assentar.resultado());
          linhas.put(
              eventoId,
              new GravadorDoLote.LinhaDoEvento(
                  eventoId, assentar.resultado(), true, assentar.motivo(), registro.posicao()));
        }
        case GRAVAR -> {
          var gravar = (Escrita.Gravar) escrita;
          pedido.estado = gravar.estado();
          pedido.gravado = true;
          for (Efeito efeito : gravar.efeitos()) {
            if (pedido.nascidos.add(efeito)) {
              nascidos.add(new GravadorDoLote.EfeitoNascido(pedidoId, efeito, gravar.estado()));
            }
          }
          pedido.veredicto(eventoId, gravar.resultado());
          linhas.put(
              eventoId,
              new GravadorDoLote.LinhaDoEvento(
                  eventoId, gravar.resultado(), true, null, registro.posicao()));
          gravar
              .correcoes()
              .forEach(
                  (corrigido, veredicto) -> {
                    pedido.veredicto(corrigido, veredicto);
                    GravadorDoLote.LinhaDoEvento linha = linhas.get(corrigido);
                    linhas.put(
                        corrigido,
                        linha == null
                            ? new GravadorDoLote.LinhaDoEvento(
                                corrigido, veredicto, false, null, null)
                            : new GravadorDoLote.LinhaDoEvento(
                                corrigido,
                                veredicto,
                                linha.assentado(),
                                linha.motivo(),
                                linha.posicao()));
                  });
        }
      }
      decididos.add(new Decidido(pedidoId, antes, escrita));
    }
    if (decididos.isEmpty()) {
      return List.of();
    }

    // Sorted by id, as the locks were taken: two of these statements never update one order's
    // row in opposite orders (the advisory locks already keep them apart; this costs nothing).
    Map<String, PedidoNoLote> gravados = new TreeMap<>();
    pedidos.values().stream().filter(p -> p.gravado).forEach(p -> gravados.put(p.pedidoId, p));
    Set<GravadorDoLote.ChaveDoEfeito> novos =
        gravador.gravar(
            gravados.values().stream()
                .map(p -> new GravadorDoLote.LinhaDoPedido(p.pedidoId, p.estado))
                .toList(),
            nascidos,
            List.copyOf(linhas.values()));

    List<EventoAplicado> aplicados = new ArrayList<>(decididos.size());
    for (Decidido decidido : decididos) {
      try (var p = MDC.putCloseable("pedido_id", decidido.pedidoId());
          var e = MDC.putCloseable("evento_id", idDe(decidido.escrita()))) {
        aplicados.add(relatar(decidido, novos));
      }
    }
    return aplicados;
  }

  /** The applied event as one apply returns it, logged as one apply logs it. */
  private static EventoAplicado relatar(
      Decidido decidido, Set<GravadorDoLote.ChaveDoEfeito> novos) {
    if (decidido.escrita() instanceof Escrita.Assentar assentar) {
      return AplicadorDeEventos.assentado(decidido.pedidoId(), assentar);
    }
    var gravar = (Escrita.Gravar) decidido.escrita();
    // Each new effect was sent once, by the first record that bore it: a later one met the key.
    List<Efeito> gravados = new ArrayList<>(gravar.efeitos().size());
    for (Efeito efeito : gravar.efeitos()) {
      if (novos.remove(new GravadorDoLote.ChaveDoEfeito(decidido.pedidoId(), efeito))) {
        gravados.add(efeito);
      }
    }
    return AplicadorDeEventos.gravado(
        decidido.pedidoId(), decidido.antes(), gravar, List.copyOf(gravados));
  }

  private static String idDe(Escrita escrita) {
    return escrita instanceof Escrita.Assentar a
        ? a.eventoId()
        : ((Escrita.Gravar) escrita).eventoId();
  }
}
