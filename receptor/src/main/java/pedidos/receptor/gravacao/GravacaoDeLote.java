package pedidos.receptor.gravacao;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.stereotype.Component;
import pedidos.esquema.FalhaDoPostgres;
import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;
import pedidos.receptor.evento.EventoRecebido;
import pedidos.receptor.gravacao.CaixaDeEntrada.Comparacao;

/**
 * Stores a batch of pending events and gives each one its own outcome. A batch of one is the
 * per-request mode; a larger one is a group commit.
 *
 * <ul>
 *   <li>One row per event id, in id order: two batches that share ids lock them in the same order,
 *       so they wait for each other instead of deadlocking.
 *   <li>RETURNING tells which ids were inserted; every other event is compared, as jsonb, with the
 *       stored row: equal is a duplicate, different a conflict (the first body stays).
 *   <li>A failed batch is retried event by event, so one bad row (a body PostgreSQL refuses) cannot
 *       fail its neighbours; only a database that is down fails them all at once (503), since
 *       retrying row by row against it would only make every request wait longer.
 * </ul>
 */
@Component
final class GravacaoDeLote {

  private final CaixaDeEntrada caixa;
  private final ObservadorDoReceptor observador;

  GravacaoDeLote(CaixaDeEntrada caixa, ObservadorDoReceptor observador) {
    this.caixa = caixa;
    this.observador = observador;
  }

  /** Completes every pending event of the batch; never throws. */
  void gravar(List<Pendente> lote) {
    try {
      tentar(lote);
    } catch (RuntimeException e) {
      // A bug here must not leave requests waiting until their timeout.
      observador.falhaDoBanco(lote.size(), FalhaDoPostgres.OUTRA, e);
      Recusa recusa =
          new Recusa(TipoDeRecusa.BANCO_INDISPONIVEL, "The event could not be stored.", e);
      lote.stream().filter(p -> !p.concluido()).forEach(p -> p.falhar(recusa));
    }
  }

  /** Stores the batch; false when the database turned out to be unavailable. */
  private boolean tentar(List<Pendente> lote) {
    Map<String, List<Pendente>> porId = new TreeMap<>();
    for (Pendente pendente : lote) {
      porId.computeIfAbsent(pendente.evento().eventoId(), id -> new ArrayList<>(1)).add(pendente);
    }
    List<EventoRecebido> linhas = new ArrayList<>(porId.size());
    for (List<Pendente> mesmoId : porId.values()) {
      linhas.add(mesmoId.get(0).evento());
    }
    observador.insercao(linhas.size());
    Set<String> inseridos;
    try {
      inseridos = caixa.inserir(linhas);
    } catch (RuntimeException e) {
      return falhou(lote, e);
    }
    List<Pendente> aComparar = new ArrayList<>();
    for (List<Pendente> mesmoId : porId.values()) {
      Pendente primeiro = mesmoId.get(0);
      if (inseridos.contains(primeiro.evento().eventoId())) {
        primeiro.concluir(Desfecho.INSERIDO);
        aComparar.addAll(mesmoId.subList(1, mesmoId.size()));
      } else {
        aComparar.addAll(mesmoId);
      }
    }
    if (!aComparar.isEmpty()) {
      comparar(aComparar);
    }
    return true;
  }

  private boolean falhou(List<Pendente> lote, RuntimeException erro) {
    FalhaDoPostgres falha = FalhaDoBanco.de(erro);
    if (falha != FalhaDoPostgres.INDISPONIVEL && lote.size() > 1) {
      observador.loteRefeitoEventoAEvento(lote.size(), falha, erro);
      for (int i = 0; i < lote.size(); i++) {
        if (!tentar(List.of(lote.get(i)))) {
          // The database went away meanwhile: one wait for it is enough, not one per event.
          falharTodos(lote.subList(i + 1, lote.size()), erro);
          return false;
        }
      }
      return true;
    }
    observador.falhaDoBanco(lote.size(), falha, erro);
    if (falha == FalhaDoPostgres.DADO_RECUSADO) {
      // Only ever a batch of one here.
      for (Pendente pendente : lote) {
        pendente.falhar(recusadoPeloBanco(pendente, FalhaDoBanco.descrever(erro)));
      }
      return true;
    }
    falharTodos(lote, erro);
    return falha != FalhaDoPostgres.INDISPONIVEL;
  }

  private static void falharTodos(List<Pendente> pendentes, RuntimeException erro) {
    Recusa recusa =
        new Recusa(TipoDeRecusa.BANCO_INDISPONIVEL, "The event could not be stored now.", erro);
    pendentes.forEach(pendente -> pendente.falhar(recusa));
  }

  private void comparar(List<Pendente> pendentes) {
    List<EventoRecebido> eventos = pendentes.stream().map(Pendente::evento).toList();
    List<Comparacao> comparacoes;
    try {
      comparacoes = caixa.comparar(eventos);
    } catch (RuntimeException e) {
      FalhaDoPostgres falha = FalhaDoBanco.de(e);
      if (falha == FalhaDoPostgres.DADO_RECUSADO) {
        // A body PostgreSQL refuses as jsonb (only a later copy of an id already in this batch
        // can get here unchecked by the insert): find it alone, the others get their answer.
        if (pendentes.size() > 1) {
          pendentes.forEach(pendente -> comparar(List.of(pendente)));
        } else {
          pendentes.get(0).falhar(recusadoPeloBanco(pendentes.get(0), FalhaDoBanco.descrever(e)));
        }
        return;
      }
      // The rows are committed; only the answer is missing. The provider redelivers on a 503
      // and gets its 200 as a duplicate then.
      observador.falhaDoBanco(pendentes.size(), falha, e);
      Recusa recusa =
          new Recusa(TipoDeRecusa.BANCO_INDISPONIVEL, "The event could not be checked now.", e);
      pendentes.forEach(pendente -> pendente.falhar(recusa));
      return;
    }
    for (int i = 0; i < pendentes.size(); i++) {
      Pendente pendente = pendentes.get(i);
      switch (comparacoes.get(i)) {
        case IGUAL -> pendente.concluir(Desfecho.DUPLICADO);
        case DIFERENTE -> pendente.concluir(Desfecho.CONFLITO);
        case AUSENTE -> {
          observador.linhaSumiu(pendente.evento());
          pendente.falhar(
              new Recusa(
                  TipoDeRecusa.BANCO_INDISPONIVEL,
                  "The event could not be stored now; redeliver it."));
        }
      }
    }
  }

  private static Recusa recusadoPeloBanco(Pendente pendente, String descricao) {
    return Recusa.corpoInvalido(
        "recusado_pelo_banco",
        "PostgreSQL refused the event (" + descricao + ").",
        pendente.evento().eventoId());
  }
}
