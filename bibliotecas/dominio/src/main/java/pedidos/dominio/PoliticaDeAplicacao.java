package pedidos.dominio;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The apply policy, whole: what one apply of a stored event writes, given what it read under the
 * order's lock. The applier reads, calls this and writes what it returns; nothing else in the
 * system decides what an apply does, so the domain's property tests exercise the code that runs.
 *
 * <p>The rules, in order:
 *
 * <ol>
 *   <li>An event already applied is left as it is, unless the mode re-applies it (replay).
 *   <li>An event that carries no fact (an ignored type, an unreadable instant) is settled with its
 *       result and the reason, never retried.
 *   <li>A fact is folded with the order's facts applied so far ({@link Aplicacao}): the order's
 *       state becomes the canonical state of all of them, the effects are those of the transition
 *       from the stored status, the fact gets its result in the canonical history, and every other
 *       fact whose stored result the fold changes gets the new one.
 * </ol>
 */
public final class PoliticaDeAplicacao {

  /**
   * @param armazenado the order's stored row, or {@code null} when it has none yet
   * @param doPedido the order's events as stored; those that are not facts of the order ({@link
   *     EventoGravado#fatoDoPedido()}) and {@code evento} itself, if present, are left out of the
   *     fold
   * @param evento the event to apply
   */
  public static Escrita decidir(
      EstadoDoPedido armazenado,
      Collection<EventoGravado> doPedido,
      EventoGravado evento,
      ModoDeAplicacao modo) {
    if (evento.aplicado() && !modo.reaplica()) {
      return new Escrita.Nada();
    }
    if (evento.interpretacao() instanceof Interpretacao.SemFato semFato) {
      return new Escrita.Assentar(evento.eventoId(), semFato.resultado(), semFato.motivo());
    }
    Fato fato = (Fato) evento.interpretacao();
    List<EventoGravado> outros = new ArrayList<>(doPedido.size());
    List<Fato> jaAplicados = new ArrayList<>(doPedido.size());
    for (EventoGravado outro : doPedido) {
      if (outro.fatoDoPedido() && !outro.eventoId().equals(evento.eventoId())) {
        outros.add(outro);
        jaAplicados.add((Fato) outro.interpretacao());
      }
    }
    Aplicacao aplicacao = Aplicacao.aplicar(armazenado, jaAplicados, fato);
    Map<String, Resultado> correcoes = new HashMap<>();
    for (EventoGravado outro : outros) {
      Resultado veredicto = aplicacao.veredictos().get(outro.eventoId());
      if (!veredicto.codigo().equals(outro.resultado())) {
        correcoes.put(outro.eventoId(), veredicto);
      }
    }
    return new Escrita.Gravar(
        evento.eventoId(),
        aplicacao.estado(),
        aplicacao.efeitos(),
        aplicacao.resultado(),
        correcoes);
  }

  private PoliticaDeAplicacao() {}
}
