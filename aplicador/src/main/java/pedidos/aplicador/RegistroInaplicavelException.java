package pedidos.aplicador;

/**
 * A record of {@code loja.eventos} that can never be applied: not JSON, or no event id. Retrying it
 * cannot help, so it goes to the dead-letter topic with this message as the reason.
 */
class RegistroInaplicavelException extends RuntimeException {

  RegistroInaplicavelException(String motivo) {
    super(motivo);
  }
}
