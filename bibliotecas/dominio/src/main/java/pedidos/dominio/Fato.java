package pedidos.dominio;

import java.util.Comparator;
import java.util.Objects;

/**
 * A valid fact about an order: its status at a version, and the fields it carried.
 *
 * @param eventoId the inbox key of the fact; equal ids are the same fact delivered again
 */
public record Fato(
    String eventoId, Status status, long versao, Long totalCentavos, String clienteEmail)
    implements Interpretacao {

  /**
   * The canonical order of an order's facts: by version; on a tie (two facts with the same
   * sequence, or two of the same status in the same millisecond) the more advanced status first,
   * then the event id, so that the order is total and never depends on arrival.
   */
  public static final Comparator<Fato> ORDEM_CANONICA =
      Comparator.comparingLong(Fato::versao)
          .thenComparing(Comparator.comparingInt((Fato fato) -> fato.status().rank()).reversed())
          .thenComparing(Fato::eventoId);

  public Fato {
    Objects.requireNonNull(eventoId, "eventoId");
    Objects.requireNonNull(status, "status");
  }
}
