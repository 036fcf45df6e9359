package pedidos.dominio;

import java.util.Objects;

/**
 * An event of an order as the apply reads it from the inbox ({@code webhook_eventos}).
 *
 * @param interpretacao what its payload means for the order
 * @param aplicado whether it is settled ({@code aplicado_em} is set)
 * @param resultado the code stored in {@code resultado}, as read: {@code null} before the first
 *     apply
 */
public record EventoGravado(
    String eventoId, Interpretacao interpretacao, boolean aplicado, String resultado) {

  public EventoGravado {
    Objects.requireNonNull(eventoId, "eventoId");
    Objects.requireNonNull(interpretacao, "interpretacao");
    if (interpretacao instanceof Fato fato && !fato.eventoId().equals(eventoId)) {
      throw new IllegalArgumentException("fact " + fato.eventoId() + " read as event " + eventoId);
    }
  }

  /**
   * Whether it is one of the facts of the order that the fold counts: settled, and not as {@link
   * Resultado#FALHA_DE_APLICACAO} (that row was never applied, and counts only once a forced replay
   * applies it).
   */
  public boolean fatoDoPedido() {
    return aplicado
        && !Resultado.FALHA_DE_APLICACAO.codigo().equals(resultado)
        && interpretacao instanceof Fato;
  }
}
