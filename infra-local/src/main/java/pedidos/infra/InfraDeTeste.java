package pedidos.infra;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.springframework.test.context.DynamicPropertyRegistry;

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

  private static final Set<PostgresLocal> PREPARADOS =
      Collections.newSetFromMap(new IdentityHashMap<>());

  /**
   * The key the relay signs Kafka records with and the aplicador verifies them with, in tests and
   * local runs ({@code PEDIDOS_KAFKA_ASSINATURA}); never a deployment's.
   */
  public static final String ASSINATURA_LOCAL = "assinatura-local-de-registros-kafka-para-testes";

  private InfraDeTeste() {}

  public static void registrar(DynamicPropertyRegistry registro, PapelNoBanco papel) {
    // Started here rather than inside the suppliers: a failure then surfaces while the context is
    // being prepared, with its own cause, instead of as an unresolvable property.
    InfraLocal infra = InfraLocal.compartilhada();
    PostgresLocal postgres = infra.postgres();
    prepararUmaVez(postgres);
    registro.add("spring.datasource.url", postgres::jdbcUrl);
    registro.add("spring.datasource.username", papel::nome);
    registro.add("spring.datasource.password", papel::senhaLocal);
    registro.add("spring.kafka.bootstrap-servers", infra.kafka()::bootstrapServers);
    // The variable a deployment sets; each service's properties read it.
    registro.add("PEDIDOS_KAFKA_ASSINATURA", () -> ASSINATURA_LOCAL);
  }

  /** The database with the roles and every migration on the classpath, once per instance. */
  public static synchronized void prepararUmaVez(PostgresLocal postgres) {
    if (PREPARADOS.add(postgres)) {
      postgres.prepararBanco();
    }
  }
}
