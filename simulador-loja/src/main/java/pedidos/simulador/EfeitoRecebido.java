package pedidos.simulador;

/** A message of {@code separacao.efeitos} as the picking system reads it. */
record EfeitoRecebido(
    String pedidoId, String efeito, String status, Long totalCentavos, String clienteEmail) {

  /** The key the relay puts in the {@code idempotency-key} header: the outbox's primary key. */
  String chave() {
    return pedidoId + ":" + efeito;
  }
}
