package pedidos.aplicador.comandos;

/** A database and the role a command connects to it as. */
record Credenciais(String url, String usuario, String senha) {

  /** Every field but the password. */
  @Override
  public String toString() {
    return "Credenciais[url=%s, usuario=%s]".formatted(url, usuario);
  }
}
