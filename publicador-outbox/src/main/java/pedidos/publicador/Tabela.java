package pedidos.publicador;

/** The captured tables; the name is also the {@code tabela} tag of the relay's metrics. */
enum Tabela {
  WEBHOOK_EVENTOS("webhook_eventos"),
  OUTBOX("outbox");

  private final String nome;

  Tabela(String nome) {
    this.nome = nome;
  }

  String nome() {
    return nome;
  }
}
