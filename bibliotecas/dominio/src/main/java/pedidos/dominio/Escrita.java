package pedidos.dominio;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What one apply writes, as {@link PoliticaDeAplicacao} decided it; the applier only stores it. */
public sealed interface Escrita {

  /** Nothing: the event was applied before and the mode does not apply it again. */
  record Nada() implements Escrita {}

  /**
   * An event that carries no fact is settled with its result and the reason; the order is not
   * touched.
   *
   * @param resultado {@link Resultado#TIPO_IGNORADO} or {@link Resultado#FATO_INVALIDO}
   */
  record Assentar(String eventoId, Resultado resultado, String motivo) implements Escrita {
    public Assentar {
      Objects.requireNonNull(eventoId, "eventoId");
      Objects.requireNonNull(resultado, "resultado");
    }
  }

  /**
   * A fact applied.
   *
   * @param estado the order's row, replaced whole (written only when it differs from the stored
   *     one)
   * @param efeitos the effects of the observed transition, to insert into the outbox under its key
   *     {@code (pedido_id, efeito)}, which drops one recorded before; carrying {@code estado} as
   *     the order's snapshot
   * @param resultado the event's result, which settles it
   * @param correcoes the order's other facts whose stored result the new fold changes, by event id:
   *     only those, so that a repeated apply rewrites nothing
   */
  record Gravar(
      String eventoId,
      EstadoDoPedido estado,
      List<Efeito> efeitos,
      Resultado resultado,
      Map<String, Resultado> correcoes)
      implements Escrita {
    public Gravar {
      Objects.requireNonNull(eventoId, "eventoId");
      Objects.requireNonNull(estado, "estado");
      Objects.requireNonNull(resultado, "resultado");
      efeitos = List.copyOf(efeitos);
      correcoes = Map.copyOf(correcoes);
    }
  }
}
