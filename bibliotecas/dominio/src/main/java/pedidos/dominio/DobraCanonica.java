package pedidos.dominio;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The canonical state of an order: the seed's rules applied to all of its facts in version order.
 *
 * <p>The seed applied each fact to whatever state it found, so the result depended on arrival:
 * {@code pago v10, cancelado v20, enviado v30} ended {@code cancelado} in version order but {@code
 * enviado} when {@code enviado} came first, the later {@code cancelado} then being merely old.
 * Folding every known fact in {@link Fato#ORDEM_CANONICA} makes the state a function of the set of
 * facts alone, whatever their arrival order and however many duplicates.
 *
 * @param estado the canonical state, or {@code null} when there are no facts
 * @param veredictos the result of every fact in the canonical history, by event id
 */
public record DobraCanonica(EstadoDoPedido estado, Map<String, Resultado> veredictos) {

  public static DobraCanonica dobrar(Collection<Fato> fatos) {
    List<Fato> ordenados = new ArrayList<>(fatos);
    ordenados.sort(Fato.ORDEM_CANONICA);
    EstadoDoPedido estado = null;
    Map<String, Resultado> veredictos = new LinkedHashMap<>();
    for (Fato fato : ordenados) {
      if (veredictos.containsKey(fato.eventoId())) {
        continue; // the same fact delivered again counts once
      }
      Passo passo = Passo.aplicar(estado, fato);
      estado = passo.estado();
      veredictos.put(fato.eventoId(), passo.resultado());
    }
    return new DobraCanonica(estado, Map.copyOf(veredictos));
  }
}
