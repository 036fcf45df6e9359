package pedidos.contrato;

import java.time.Instant;

/**
 * A record of {@value TopicosDoKafka#EVENTOS}: one stored inbox row, self-contained, so that a
 * consumer or a replay needs nothing else. Written by the relay, read by the aplicador (listener
 * and replay), both through {@link FormatoDosRegistros}. The aplicador's reconciliation also stores
 * the orders it reads from the provider's API as events of this shape.
 *
 * <pre>
 * {"evento_id": "evt_1", "recurso_id": "ord_1", "tipo": "order.paid",
 *  "payload": {the body as stored}, "recebido_em": "2026-11-29T12:00:00.123456Z"}
 * </pre>
 *
 * @param eventoId the provider's event id, the inbox's primary key
 * @param recursoId the order id; also the record's key
 * @param tipo the event type ({@code order.paid}, ...)
 * @param payload the whole event as the provider sent it, as JSON text (PostgreSQL's text of the
 *     stored {@code jsonb}); on the wire it is the object itself, not a string
 * @param recebidoEm when the receptor stored it; {@code null} when the record does not say (or for
 *     an event not yet stored)
 */
public record RegistroDeEvento(
    String eventoId, String recursoId, String tipo, String payload, Instant recebidoEm) {}
