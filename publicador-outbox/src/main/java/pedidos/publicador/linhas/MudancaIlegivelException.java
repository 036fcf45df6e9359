package pedidos.publicador.linhas;

/**
 * A captured row the relay cannot turn into a message. Never forwarded partially nor dropped: the
 * row is dead-lettered ({@code RegistroDeMortos}) with this as its reason before the stream moves
 * past it, so it can be re-published once the cause is fixed.
 */
class MudancaIlegivelException extends RuntimeException {

  MudancaIlegivelException(String mensagem) {
    super(mensagem);
  }

  MudancaIlegivelException(String mensagem, Throwable causa) {
    super(mensagem, causa);
  }
}
