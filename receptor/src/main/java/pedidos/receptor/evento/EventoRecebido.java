package pedidos.receptor.evento;

/**
 * A signed body that passed validation: what goes into {@code webhook_eventos}.
 *
 * @param eventoId {@code id}, the provider's key that deduplicates redeliveries
 * @param recursoId {@code data.id}, the order the event is about
 * @param tipo {@code type}
 * @param json the whole body as text, stored as {@code jsonb}
 */
public record EventoRecebido(String eventoId, String recursoId, String tipo, String json) {}
