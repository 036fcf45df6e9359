package pedidos.contrato;

/**
 * A Kafka record that does not follow its contract: not JSON, outside the input envelope, or
 * without a field every reader needs. Reading it again cannot help: the aplicador sends it to the
 * dead-letter topic with this message as the reason, the relay records the row as a dead letter.
 */
public class RegistroIlegivelException extends RuntimeException {

  /**
   * @param motivo a short, stable reason: it becomes the dead-letter record's reason header
   */
  public RegistroIlegivelException(String motivo) {
    super(motivo);
  }

  public RegistroIlegivelException(String motivo, Throwable causa) {
    super(motivo, causa);
  }
}
