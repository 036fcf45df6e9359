package pedidos.infra;

/**
 * The key the relay signs Kafka records with and the aplicador verifies them with, in tests and
 * local runs ({@code PEDIDOS_KAFKA_ASSINATURA}); never a deployment's.
 */
public final class AssinaturaLocal {

  public static final String CHAVE = "assinatura-local-de-registros-kafka-para-testes";

  private AssinaturaLocal() {}
}
