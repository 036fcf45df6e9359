package pedidos.publicador;

/**
 * A captured row the relay cannot turn into a message. Never skipped: the batch fails, the engine
 * stops and retries, and the health check says why, because forwarding a partial row or dropping it
 * would both lose a fact silently.
 */
class MudancaIlegivelException extends RuntimeException {

  MudancaIlegivelException(String mensagem) {
    super(mensagem);
  }

  MudancaIlegivelException(String mensagem, Throwable causa) {
    super(mensagem, causa);
  }
}
