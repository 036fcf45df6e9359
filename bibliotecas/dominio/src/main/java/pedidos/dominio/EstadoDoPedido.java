package pedidos.dominio;

import java.util.Objects;

/**
 * The state of an order as stored in {@code pedidos}.
 *
 * @param versaoOrigem the version of the fact whose status is in force
 * @param totalCentavos may arrive later than the status: the first fact does not always carry it
 */
public record EstadoDoPedido(
    Status status, long versaoOrigem, Long totalCentavos, String clienteEmail) {

  public EstadoDoPedido {
    Objects.requireNonNull(status, "status");
  }
}
