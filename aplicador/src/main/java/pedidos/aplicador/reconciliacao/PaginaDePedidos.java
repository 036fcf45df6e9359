package pedidos.aplicador.reconciliacao;

import java.util.List;

/**
 * One page of the orders API.
 *
 * @param proxima the opaque token of the next page, or {@code null} on the last one
 */
record PaginaDePedidos(List<PedidoDaApi> pedidos, String proxima) {}
