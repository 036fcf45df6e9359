package pedidos.dominio;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The canonical fold of an order told step by step, for an operator: which of the order's events
 * the fold counts and why the others are left out, then each fact in {@link Fato#ORDEM_CANONICA}
 * with the state before and after it, its verdict and why, in words.
 *
 * <p>It decides nothing of its own: each step is {@link Passo#aplicar}, the step {@link
 * DobraCanonica} takes, and which events count is {@link EventoGravado#fatoDoPedido()}, what {@link
 * PoliticaDeAplicacao} folds. So the explained state is the state the applier stores (property
 * tests hold it to {@link DobraCanonica}).
 *
 * @param passos the facts the fold counts, in canonical order (a fact delivered again appears once
 *     more, marked {@link PassoExplicado#repetido()})
 * @param foraDaDobra the order's events the fold does not count, each with why
 * @param estado the canonical state; {@code null} when the fold counts no fact
 */
public record ExplicacaoDaDobra(
    List<PassoExplicado> passos, List<ForaDaDobra> foraDaDobra, EstadoDoPedido estado) {

  public ExplicacaoDaDobra {
    passos = List.copyOf(passos);
    foraDaDobra = List.copyOf(foraDaDobra);
  }

  /**
   * One fact of the fold.
   *
   * @param antes the state in force before it; {@code null} for the first
   * @param depois the state after it
   * @param efeitos the effects of the transition this step makes in the canonical history (the
   *     outbox holds those of the transitions actually stored, which the page shows beside)
   * @param repetido the same event id folded before: it counts once and changes nothing
   * @param porque the verdict in words
   */
  public record PassoExplicado(
      Fato fato,
      EstadoDoPedido antes,
      EstadoDoPedido depois,
      Resultado resultado,
      List<Efeito> efeitos,
      boolean repetido,
      String porque) {
    public PassoExplicado {
      Objects.requireNonNull(fato, "fato");
      efeitos = List.copyOf(efeitos);
    }
  }

  /**
   * An event of the order the fold does not count.
   *
   * @param resultado its stored verdict code, or {@code null} while pending
   */
  public record ForaDaDobra(String eventoId, String resultado, String porque) {}

  /** Explains the fold of the order's stored events, as the applier would fold them. */
  public static ExplicacaoDaDobra explicar(Collection<EventoGravado> eventos) {
    List<Fato> fatos = new ArrayList<>();
    List<ForaDaDobra> fora = new ArrayList<>();
    for (EventoGravado evento : eventos) {
      if (evento.fatoDoPedido()) {
        fatos.add((Fato) evento.interpretacao());
      } else {
        fora.add(new ForaDaDobra(evento.eventoId(), evento.resultado(), foraPorque(evento)));
      }
    }
    return explicarFatos(fatos, fora);
  }

  /** Explains the fold of these facts alone. */
  public static ExplicacaoDaDobra explicarFatos(Collection<Fato> fatos) {
    return explicarFatos(fatos, List.of());
  }

  /** Whether the stored row is the canonical state (a restore or a bug may have made it differ). */
  public boolean confereCom(EstadoDoPedido armazenado) {
    return Objects.equals(estado, armazenado);
  }

  private static ExplicacaoDaDobra explicarFatos(Collection<Fato> fatos, List<ForaDaDobra> fora) {
    List<Fato> ordenados = new ArrayList<>(fatos);
    ordenados.sort(Fato.ORDEM_CANONICA);
    List<PassoExplicado> passos = new ArrayList<>(ordenados.size());
    Set<String> vistos = new HashSet<>();
    EstadoDoPedido estado = null;
    for (Fato fato : ordenados) {
      if (!vistos.add(fato.eventoId())) {
        passos.add(
            new PassoExplicado(
                fato,
                estado,
                estado,
                null,
                List.of(),
                true,
                "the same event delivered again: it counts once and changes nothing"));
        continue;
      }
      Passo passo = Passo.aplicar(estado, fato);
      passos.add(
          new PassoExplicado(
              fato,
              estado,
              passo.estado(),
              passo.resultado(),
              passo.efeitos(),
              false,
              FrasesDosVeredictos.doPasso(estado, fato, passo)));
      estado = passo.estado();
    }
    return new ExplicacaoDaDobra(passos, fora, estado);
  }

  private static String foraPorque(EventoGravado evento) {
    if (!evento.aplicado()) {
      return "not applied yet (pending): the stored state does not count it until an apply does";
    }
    if (Resultado.FALHA_DE_APLICACAO.codigo().equals(evento.resultado())) {
      return FrasesDosVeredictos.de(Resultado.FALHA_DE_APLICACAO)
          + " Re-deriving the order applies it again.";
    }
    if (evento.interpretacao() instanceof Interpretacao.SemFato semFato) {
      return FrasesDosVeredictos.de(semFato.resultado()) + " (" + semFato.motivo() + ")";
    }
    return "not a fact of the order";
  }
}
