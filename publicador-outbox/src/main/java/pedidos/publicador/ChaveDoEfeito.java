package pedidos.publicador;

/** The primary key of an outbox row, which is also the idempotency key the picking system sees. */
record ChaveDoEfeito(String pedidoId, String efeito) {

  String idempotencia() {
    return pedidoId + ":" + efeito;
  }
}
