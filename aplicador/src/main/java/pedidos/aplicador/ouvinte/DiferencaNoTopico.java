package pedidos.aplicador.ouvinte;

/**
 * One way a topic differs from what the applier needs, said as an operator should read it: what
 * differs, and what to do about it.
 *
 * @param intoleravel the applier cannot work correctly with it and refuses to start; otherwise it
 *     starts and logs a warning
 */
record DiferencaNoTopico(boolean intoleravel, String descricao) {

  static DiferencaNoTopico intoleravel(String descricao) {
    return new DiferencaNoTopico(true, descricao);
  }

  static DiferencaNoTopico toleravel(String descricao) {
    return new DiferencaNoTopico(false, descricao);
  }
}
