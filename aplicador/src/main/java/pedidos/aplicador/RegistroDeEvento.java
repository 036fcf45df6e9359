package pedidos.aplicador;

import java.time.OffsetDateTime;

/**
 * A record of {@code loja.eventos}: the stored event, self-contained so that a consumer or a replay
 * needs nothing else.
 *
 * @param payload the whole event as the provider sent it, JSON text
 * @param recebidoEm when the receptor stored it; {@code null} when the record does not say
 */
record RegistroDeEvento(
    String eventoId, String recursoId, String tipo, String payload, OffsetDateTime recebidoEm) {}
