package pedidos.testes;

import org.springframework.test.context.DynamicPropertyRegistry;
import pedidos.infra.AssinaturaLocal;
import pedidos.infra.CertificadoLocal;
import pedidos.infra.InfraLocal;
import pedidos.infra.KafkaLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.infra.UsuarioDoKafka;

/**
 * Points a Spring Boot test at the JVM's shared infrastructure, connected as one service's role:
 *
 * <pre>{@code
 * @DynamicPropertySource
 * static void infra(DynamicPropertyRegistry r) {
 *   InfraDeTeste.registrar(r, PapelNoBanco.APLICADOR);
 * }
 * }</pre>
 *
 * <p>The database is prepared first, once per JVM, as a deployment does it: the roles, then the
 * migrations as the owner role; services never migrate.
 */
public final class InfraDeTeste {

  /** The key tests sign and verify Kafka records with: {@link AssinaturaLocal#CHAVE}. */
  public static final String ASSINATURA_LOCAL = AssinaturaLocal.CHAVE;

  private InfraDeTeste() {}

  public static void registrar(DynamicPropertyRegistry registro, PapelNoBanco papel) {
    // Started here rather than inside the suppliers: a failure then surfaces while the context is
    // being prepared, with its own cause, instead of as an unresolvable property.
    InfraLocal infra = InfraLocal.compartilhada();
    PostgresLocal postgres = infra.postgres();
    PostgresDeTeste.registrar(registro, postgres, papel);
    registro.add("spring.kafka.bootstrap-servers", infra.kafka()::bootstrapServers);
    // The services' own principals are exercised by the ACL tests (infra-local) and the end-to-end
    // run; a service's tests also play the relay or the picking system, so they connect as the
    // administrator, through the standard properties a deployment sets.
    propriedadesDoKafka(UsuarioDoKafka.ADMINISTRADOR)
        .forEach((nome, valor) -> registro.add(nome, () -> valor));
    // The variable a deployment sets; each service's properties read it.
    registro.add("PEDIDOS_KAFKA_ASSINATURA", () -> ASSINATURA_LOCAL);
  }

  /**
   * The standard Spring Kafka properties that authenticate as the user on the shared broker: what a
   * deployment sets as {@code SPRING_KAFKA_SECURITY_PROTOCOL}, {@code
   * SPRING_KAFKA_PROPERTIES_SASL_MECHANISM} and {@code SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG}.
   */
  public static java.util.Map<String, String> propriedadesDoKafka(UsuarioDoKafka usuario) {
    var cliente = usuario.propriedadesDoCliente();
    return java.util.Map.of(
        "spring.kafka.security.protocol",
        (String) cliente.get("security.protocol"),
        "spring.kafka.properties.sasl.mechanism",
        (String) cliente.get("sasl.mechanism"),
        "spring.kafka.properties.sasl.jaas.config",
        (String) cliente.get("sasl.jaas.config"));
  }

  /**
   * The standard Spring Kafka properties that reach the shared broker's TLS listener as the user:
   * what a deployment with TLS sets ({@code SPRING_KAFKA_SECURITY_PROTOCOL=SASL_SSL}, {@code
   * SPRING_KAFKA_SSL_TRUST_STORE_*}), beside the SASL ones.
   */
  public static java.util.Map<String, String> propriedadesDoKafkaSobreTls(UsuarioDoKafka usuario) {
    KafkaLocal kafka = InfraLocal.compartilhada().kafka();
    CertificadoLocal tls = kafka.certificado();
    var propriedades = new java.util.LinkedHashMap<>(propriedadesDoKafka(usuario));
    propriedades.put("spring.kafka.bootstrap-servers", kafka.bootstrapServersTls().orElseThrow());
    propriedades.put("spring.kafka.security.protocol", "SASL_SSL");
    propriedades.put(
        "spring.kafka.ssl.trust-store-location", tls.armazemDeConfianca().toUri().toString());
    propriedades.put("spring.kafka.ssl.trust-store-password", tls.senha());
    propriedades.put("spring.kafka.ssl.trust-store-type", CertificadoLocal.TIPO);
    return propriedades;
  }

  /**
   * Settings of a plain Kafka client of the shared broker, as the administrator: {@code
   * bootstrap.servers}, the SASL settings, then the given name-value pairs.
   */
  public static java.util.Map<String, Object> clienteDoKafka(Object... pares) {
    var configuracao =
        new java.util.HashMap<>(
            InfraLocal.compartilhada().kafka().cliente(UsuarioDoKafka.ADMINISTRADOR));
    for (int i = 0; i < pares.length; i += 2) {
      configuracao.put((String) pares[i], pares[i + 1]);
    }
    return configuracao;
  }

  /** The database with the roles and every migration on the classpath, once per instance. */
  public static void prepararUmaVez(PostgresLocal postgres) {
    PostgresDeTeste.prepararUmaVez(postgres);
  }
}
