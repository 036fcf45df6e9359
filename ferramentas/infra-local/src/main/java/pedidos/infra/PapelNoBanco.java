package pedidos.infra;

/**
 * The database roles of the system, as a deployment creates them: an owner that runs the
 * migrations, and one login role per service holding only the grants of the migrations.
 */
public enum PapelNoBanco {
  /** Owns the database and its objects; runs migrations. No service runs with it. */
  DONO("pedidos_dono"),
  RECEPTOR("pedidos_receptor"),
  APLICADOR("pedidos_aplicador"),
  /** Also has {@code REPLICATION}, which a grant cannot give. */
  PUBLICADOR("pedidos_publicador");

  private final String nome;

  PapelNoBanco(String nome) {
    this.nome = nome;
  }

  /** The role's name in PostgreSQL. */
  public String nome() {
    return nome;
  }

  /**
   * The local and test password. The embedded server trusts local connections, so it is never
   * checked; it is here because clients and Spring want one.
   */
  public String senhaLocal() {
    return "senha-local-" + nome;
  }
}
