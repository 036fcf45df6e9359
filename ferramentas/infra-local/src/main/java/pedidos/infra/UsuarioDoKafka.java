package pedidos.infra;

import java.util.Map;
import pedidos.contrato.AutenticacaoDoKafka;

/**
 * The Kafka principals of the system, as a deployment creates them (SCRAM-SHA-512 users): one per
 * service, with only the ACLs its work needs (docs/kafka.md, "Kafka security"), and an
 * administrator for tests and operators. The same names are used by docker-compose.
 */
public enum UsuarioDoKafka {
  /** Writes {@code loja.eventos} and {@code separacao.efeitos}; creates the topics. */
  PUBLICADOR("pedidos-publicador"),
  /** Reads {@code loja.eventos} in group {@code aplicador}; writes {@code loja.eventos.DLT}. */
  APLICADOR("pedidos-aplicador"),
  /** The picking system: reads {@code separacao.efeitos} only. */
  SEPARACAO("pedidos-separacao"),
  /** A super-user: what tests and the local run use to set up and look around. */
  ADMINISTRADOR("pedidos-admin");

  /** The only SASL mechanism clients use. */
  public static final String MECANISMO = AutenticacaoDoKafka.MECANISMO;

  private final String nome;

  UsuarioDoKafka(String nome) {
    this.nome = nome;
  }

  /** The principal's name ({@code User:<nome>} in ACLs). */
  public String nome() {
    return nome;
  }

  /** The local and test password; never a deployment's. */
  public String senhaLocal() {
    return "senha-local-" + nome;
  }

  /**
   * The client settings that authenticate as this user, with Kafka's own names (a Spring service
   * takes the same under {@code spring.kafka.properties.*}).
   */
  public Map<String, Object> propriedadesDoCliente() {
    return AutenticacaoDoKafka.doCliente(nome, senhaLocal());
  }

  /**
   * The same as environment variables of a Spring service (what compose sets): {@code
   * SPRING_KAFKA_SECURITY_PROTOCOL}, {@code SPRING_KAFKA_PROPERTIES_SASL_MECHANISM}, {@code
   * SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG}.
   */
  public Map<String, String> variaveisDeAmbiente() {
    return Map.of(
        "SPRING_KAFKA_SECURITY_PROTOCOL",
        "SASL_PLAINTEXT",
        "SPRING_KAFKA_PROPERTIES_SASL_MECHANISM",
        MECANISMO,
        "SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG",
        jaas(nome, senhaLocal()));
  }

  static String jaas(String usuario, String senha) {
    return AutenticacaoDoKafka.jaas(usuario, senha);
  }
}
