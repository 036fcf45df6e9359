package pedidos.aplicador.ouvinte;

/**
 * A {@code loja.eventos} record the relay did not sign with a configured key: unsigned, malformed
 * or wrongly signed. It may be a forgery written straight to the broker, so it is neither stored
 * nor applied, and no inbox row is touched on its account; retrying cannot help, so it goes to the
 * dead-letter topic with this message as the reason.
 */
public class RegistroNaoAutenticadoException extends RuntimeException {

  RegistroNaoAutenticadoException(String motivo) {
    super(motivo);
  }

  /** Whether this failure, wherever in the chain of causes, is a refused signature. */
  static boolean eh(Throwable falha) {
    for (Throwable causa = falha; causa != null; causa = causa.getCause()) {
      if (causa instanceof RegistroNaoAutenticadoException) {
        return true;
      }
      if (causa.getCause() == causa) {
        break;
      }
    }
    return false;
  }
}
