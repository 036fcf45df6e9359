package pedidos.aplicador.reconciliacao;

import java.math.BigDecimal;

/**
 * An order as the provider's orders API returns it.
 *
 * @param sequence the order's {@code sequence} when it is a JSON number, else {@code null}
 * @param json the order object exactly as received, stored as the fact's payload
 */
record PedidoDaApi(
    String id,
    String status,
    BigDecimal sequence,
    String updatedAt,
    Long totalCentavos,
    String clienteEmail,
    String json) {}
