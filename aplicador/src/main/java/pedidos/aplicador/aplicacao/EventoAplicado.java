package pedidos.aplicador.aplicacao;

import java.util.List;
import pedidos.dominio.Efeito;
import pedidos.dominio.Resultado;

/** What one apply did: the result recorded for the event and the effects it added to the outbox. */
public record EventoAplicado(
    String eventoId, String pedidoId, Resultado resultado, List<Efeito> efeitos) {}
