package pedidos.contrato;

import java.time.Instant;

/**
 * A record of {@value TopicosDoKafka#EFEITOS}: one outbox row as the picking system receives it,
 * keyed by order, with the header {@value TopicosDoKafka#CABECALHO_DE_IDEMPOTENCIA} = {@link
 * #idempotencia()}. Written by the relay, read by the picking system (the simulator plays it), both
 * through {@link FormatoDosRegistros}.
 *
 * <pre>
 * {"pedido_id": "ord_1", "efeito": "liberar_separacao", "status": "pago",
 *  "total_centavos": 1990, "criado_em": "2026-11-29T12:00:00.123456Z"}
 * </pre>
 *
 * <p>No customer email: picking needs the order, its status and total, never who bought it, so no
 * personal data reaches the topic, its retention or the picking system (SECURITY.md, "Personal data
 * in Kafka").
 *
 * @param pedidoId the order; also the record's key
 * @param efeito the effect ({@code liberar_separacao}, {@code interromper_separacao}, {@code
 *     notificar_reembolso})
 * @param status the order's status when the effect was recorded; {@code null} when not known
 * @param totalCentavos the order's total then; {@code null} when not known
 * @param criadoEm when the effect was recorded; {@code null} only when a reader met a record that
 *     does not say
 */
public record RegistroDeEfeito(
    String pedidoId, String efeito, String status, Long totalCentavos, Instant criadoEm) {

  /** The idempotency key of an effect: the outbox's primary key, {@code pedido_id:efeito}. */
  public static String idempotencia(String pedidoId, String efeito) {
    return pedidoId + ":" + efeito;
  }

  /** This effect's idempotency key, the value of its {@code idempotency-key} header. */
  public String idempotencia() {
    return idempotencia(pedidoId, efeito);
  }
}
