package pedidos.dominio;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * One fact applied to an order: the state becomes the canonical state of every fact applied so far,
 * and the effects come from the transition actually observed, from the stored status to the new
 * one. A payment applied after the cancellation therefore releases nothing (the order stays {@code
 * cancelado}), and {@code interromper_separacao} follows only a stored {@code pago}, which released
 * the picking when it was stored.
 *
 * <p>Package-private: the applier and everything else go through {@link PoliticaDeAplicacao}, the
 * whole policy, of which this is the fold.
 *
 * @param estado the order's new state
 * @param resultado the result of the applied fact in the canonical history
 * @param veredictos the results of all the order's facts, which a new fact can change (a {@code
 *     cancelado} arriving late turns an applied {@code enviado} into a {@code
 *     regressao_de_terminal}), so that the inbox tells the truth about every fact
 * @param efeitos effects to record, each at most once per order (the outbox key)
 */
record Aplicacao(
    EstadoDoPedido estado,
    Resultado resultado,
    Map<String, Resultado> veredictos,
    List<Efeito> efeitos) {

  /**
   * @param atual the stored state, or {@code null} when the order has no row yet
   * @param jaAplicados the order's facts applied before; may contain {@code novo} again (a forced
   *     re-apply, which then changes nothing)
   */
  static Aplicacao aplicar(EstadoDoPedido atual, Collection<Fato> jaAplicados, Fato novo) {
    List<Fato> fatos = new ArrayList<>(jaAplicados.size() + 1);
    fatos.add(novo);
    fatos.addAll(jaAplicados);
    DobraCanonica dobra = DobraCanonica.dobrar(fatos);
    Status de = atual == null ? null : atual.status();
    Status para = dobra.estado().status();
    List<Efeito> efeitos = de == para ? List.of() : Efeito.daTransicao(de, para);
    return new Aplicacao(
        dobra.estado(), dobra.veredictos().get(novo.eventoId()), dobra.veredictos(), efeitos);
  }
}
