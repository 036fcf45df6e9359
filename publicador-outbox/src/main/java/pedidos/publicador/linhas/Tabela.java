package pedidos.publicador.linhas;

/** The captured tables; the name is also the {@code tabela} tag of the relay's metrics. */
public enum Tabela {
  WEBHOOK_EVENTOS("webhook_eventos"),
  OUTBOX("outbox");

  private final String nome;

  Tabela(String nome) {
    this.nome = nome;
  }

  public String nome() {
    return nome;
  }
}
