package pedidos.publicador.envio;

/**
 * Kafka did not acknowledge a record in time. Deliberately not one of Kafka Connect's retriable
 * exceptions: the engine would then poll the next batch and the failed one would be skipped. The
 * engine stops instead, nothing of the batch is committed, and the supervisor restarts it.
 */
public class FalhaAoPublicarException extends RuntimeException {

  public FalhaAoPublicarException(String mensagem, Throwable causa) {
    super(mensagem, causa);
  }
}
