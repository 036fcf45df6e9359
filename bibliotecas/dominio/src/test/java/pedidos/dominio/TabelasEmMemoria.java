package pedidos.dominio;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One order's rows of the applier's three tables ({@code webhook_eventos}, {@code pedidos}, {@code
 * outbox}), kept in memory and written the way the applier's SQL writes what {@link
 * PoliticaDeAplicacao} returns. It decides nothing: every decision is the production policy's, so
 * the properties over it prove the code that runs, and what is left here is storage.
 */
final class TabelasEmMemoria {

  /** One apply: the stored state and outbox it started from, and what the policy wrote. */
  record Observacao(EstadoDoPedido antes, Set<Efeito> outboxAntes, Escrita escrita) {}

  private final Map<String, EventoGravado> inbox = new LinkedHashMap<>();
  private final Set<Efeito> outbox = new LinkedHashSet<>();
  private final List<Observacao> observacoes = new ArrayList<>();
  private EstadoDoPedido pedido;

  /** The receptor's insert and the listener's apply of it, in {@link ModoDeAplicacao#NORMAL}. */
  void entregar(String eventoId, Interpretacao interpretacao) {
    guardar(eventoId, interpretacao);
    aplicar(eventoId, ModoDeAplicacao.NORMAL);
  }

  void entregar(Fato... fatos) {
    for (Fato fato : fatos) {
      entregar(fato.eventoId(), fato);
    }
  }

  /** The receptor's {@code INSERT ... ON CONFLICT DO NOTHING}: a pending row, once. */
  void guardar(String eventoId, Interpretacao interpretacao) {
    inbox.putIfAbsent(eventoId, new EventoGravado(eventoId, interpretacao, false, null));
  }

  /**
   * A pending row settled as {@link Resultado#FALHA_DE_APLICACAO} (its applies kept failing), as
   * {@code FalhasDeAplicacao} does.
   */
  void falhar(String eventoId) {
    EventoGravado linha = inbox.get(eventoId);
    if (!linha.aplicado()) {
      inbox.put(
          eventoId,
          new EventoGravado(
              eventoId, linha.interpretacao(), true, Resultado.FALHA_DE_APLICACAO.codigo()));
    }
  }

  /** The applier: read the order, ask the policy, write what it says. */
  Escrita aplicar(String eventoId, ModoDeAplicacao modo) {
    Escrita escrita =
        PoliticaDeAplicacao.decidir(pedido, List.copyOf(inbox.values()), inbox.get(eventoId), modo);
    observacoes.add(new Observacao(pedido, Set.copyOf(outbox), escrita));
    gravar(escrita);
    return escrita;
  }

  private void gravar(Escrita escrita) {
    if (escrita instanceof Escrita.Assentar assentar) {
      assentar(assentar.eventoId(), assentar.resultado());
    } else if (escrita instanceof Escrita.Gravar gravar) {
      pedido = gravar.estado();
      outbox.addAll(gravar.efeitos()); // the key (pedido_id, efeito): a repeat is dropped
      assentar(gravar.eventoId(), gravar.resultado());
      gravar
          .correcoes()
          .forEach(
              (eventoId, resultado) -> {
                EventoGravado linha = inbox.get(eventoId);
                inbox.put(
                    eventoId,
                    new EventoGravado(
                        eventoId, linha.interpretacao(), linha.aplicado(), resultado.codigo()));
              });
    }
  }

  private void assentar(String eventoId, Resultado resultado) {
    EventoGravado linha = inbox.get(eventoId);
    inbox.put(
        eventoId, new EventoGravado(eventoId, linha.interpretacao(), true, resultado.codigo()));
  }

  EstadoDoPedido estado() {
    return pedido;
  }

  List<Efeito> outbox() {
    return List.copyOf(outbox);
  }

  /** The stored result of every settled row, by event id. */
  Map<String, Resultado> resultados() {
    Map<String, Resultado> resultados = new LinkedHashMap<>();
    inbox.forEach(
        (eventoId, linha) -> {
          if (linha.resultado() != null) {
            resultados.put(eventoId, resultadoDoCodigo(linha.resultado()));
          }
        });
    return resultados;
  }

  List<EventoGravado> inbox() {
    return List.copyOf(inbox.values());
  }

  List<Observacao> observacoes() {
    return observacoes;
  }

  private static Resultado resultadoDoCodigo(String codigo) {
    for (Resultado resultado : Resultado.values()) {
      if (resultado.codigo().equals(codigo)) {
        return resultado;
      }
    }
    throw new IllegalArgumentException(codigo);
  }
}
