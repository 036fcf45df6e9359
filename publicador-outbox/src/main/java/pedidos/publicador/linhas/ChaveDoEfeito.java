package pedidos.publicador.linhas;

import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.RegistroDeEfeito;

/** The primary key of an outbox row, which is also the idempotency key the picking system sees. */
public record ChaveDoEfeito(String pedidoId, String efeito) {

  public String idempotencia() {
    return RegistroDeEfeito.idempotencia(pedidoId, efeito);
  }

  /** The key as a JSON object, the shape Debezium gives the row's key. */
  public String json() {
    var chave = FormatoDosRegistros.json().createObjectNode();
    chave.put("pedido_id", pedidoId);
    chave.put("efeito", efeito);
    return FormatoDosRegistros.json().writeValueAsString(chave);
  }
}
