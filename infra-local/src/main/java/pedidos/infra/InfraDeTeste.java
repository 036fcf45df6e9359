package pedidos.infra;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Points a Spring Boot test at the JVM's shared infrastructure:
 *
 * <pre>{@code
 * @DynamicPropertySource
 * static void infra(DynamicPropertyRegistry r) {
 *   InfraDeTeste.registrar(r);
 * }
 * }</pre>
 */
public final class InfraDeTeste {

  private InfraDeTeste() {}

  public static void registrar(DynamicPropertyRegistry registro) {
    // Started here rather than inside the suppliers: a failure then surfaces while the context is
    // being prepared, with its own cause, instead of as an unresolvable property.
    InfraLocal infra = InfraLocal.compartilhada();
    PostgresLocal postgres = infra.postgres();
    registro.add("spring.datasource.url", postgres::jdbcUrl);
    registro.add("spring.datasource.username", postgres::usuario);
    registro.add("spring.datasource.password", postgres::senha);
    registro.add("spring.kafka.bootstrap-servers", infra.kafka()::bootstrapServers);
  }
}
