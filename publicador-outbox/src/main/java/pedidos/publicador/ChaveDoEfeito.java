package pedidos.publicador;

/** The primary key of an outbox row, which is also the idempotency key the picking system sees. */
record ChaveDoEfeito(String pedidoId, String efeito) {

  String idempotencia() {
    return pedidoId + ":" + efeito;
  }

  /** The key as a JSON object, the shape Debezium gives the row's key. */
  String json() {
    var chave = FormatoDasMensagens.JSON.createObjectNode();
    chave.put("pedido_id", pedidoId);
    chave.put("efeito", efeito);
    return FormatoDasMensagens.JSON.writeValueAsString(chave);
  }
}
