package pedidos.contrato;

import java.util.Map;

/**
 * How a client authenticates to the brokers as deployed: SASL/SCRAM-SHA-512 on the plaintext
 * listener of the internal network (docs/kafka.md, "Kafka security"). Written once: the local
 * users, the simulator and the deployment test all build their client settings here.
 */
public final class AutenticacaoDoKafka {

  /** The only SASL mechanism clients use. */
  public static final String MECANISMO = "SCRAM-SHA-512";

  /** The listener's protocol. */
  public static final String PROTOCOLO = "SASL_PLAINTEXT";

  private AutenticacaoDoKafka() {}

  /**
   * The client settings that authenticate as {@code usuario}, with Kafka's own names (a Spring
   * service takes the same under {@code spring.kafka.properties.*}).
   */
  public static Map<String, Object> doCliente(String usuario, String senha) {
    return Map.of(
        "security.protocol", PROTOCOLO,
        "sasl.mechanism", MECANISMO,
        "sasl.jaas.config", jaas(usuario, senha));
  }

  /**
   * The {@code sasl.jaas.config} line. The values are quoted and a quote or backslash in them
   * escaped, as Kafka's JAAS parser reads them: a password with a quote must not end the line.
   */
  public static String jaas(String usuario, String senha) {
    return "org.apache.kafka.common.security.scram.ScramLoginModule required username="
        + entreAspas(usuario)
        + " password="
        + entreAspas(senha)
        + ";";
  }

  private static String entreAspas(String valor) {
    return "\"" + valor.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
