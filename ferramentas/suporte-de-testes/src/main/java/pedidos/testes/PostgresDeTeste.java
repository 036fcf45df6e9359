package pedidos.testes;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;

/**
 * The test JVM's PostgreSQL, from infra-local, prepared as a deployment prepares it (the roles,
 * then the migrations as the owner role): started once, shared by every test class, stopped when
 * the JVM exits.
 */
public final class PostgresDeTeste {

  private static final Set<PostgresLocal> PREPARADOS =
      Collections.newSetFromMap(new IdentityHashMap<>());

  private static PostgresLocal semKafka;

  private PostgresDeTeste() {}

  /** The PostgreSQL of {@link InfraLocal#compartilhada()}, for tests that also use its Kafka. */
  public static PostgresLocal compartilhado() {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    prepararUmaVez(postgres);
    return postgres;
  }

  /**
   * A PostgreSQL of its own, for a module that never talks to Kafka: the broker of {@link
   * InfraLocal#compartilhada()} would only cost start-up time and CPU there.
   */
  public static synchronized PostgresLocal semKafka() {
    if (semKafka == null) {
      PostgresLocal postgres = PostgresLocal.builder().fsync(false).iniciar();
      Runtime.getRuntime().addShutdownHook(new Thread(postgres::close, "pg-de-teste-shutdown"));
      prepararUmaVez(postgres);
      semKafka = postgres;
    }
    return semKafka;
  }

  /** Spring's data source, connected as the service's own role to the prepared database. */
  public static void registrar(
      DynamicPropertyRegistry registro, PostgresLocal postgres, PapelNoBanco papel) {
    prepararUmaVez(postgres);
    registro.add("spring.datasource.url", postgres::jdbcUrl);
    registro.add("spring.datasource.username", papel::nome);
    registro.add("spring.datasource.password", papel::senhaLocal);
  }

  /** As the superuser, for arranging and checking outside the services' privileges. */
  public static JdbcClient comoSuperusuario(PostgresLocal postgres) {
    return JdbcClient.create(postgres.dataSource());
  }

  /**
   * A database of its own on the shared PostgreSQL, migrated with every migration on the classpath,
   * for a test that must see no other test's rows.
   *
   * @return its JDBC URL; the shared server's superuser owns it
   */
  public static String bancoNovo(String prefixo) {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    // The migrations grant to the services' roles, which must exist in the cluster.
    postgres.prepararPapeis();
    String nome = prefixo + "_" + UUID.randomUUID().toString().replace("-", "");
    comoSuperusuario(postgres).sql("CREATE DATABASE " + nome).update();
    String url = postgres.jdbcUrl().replace("/" + postgres.banco(), "/" + nome);
    Flyway.configure()
        .dataSource(url, postgres.usuario(), postgres.senha())
        .locations("classpath:db/migration")
        .load()
        .migrate();
    return url;
  }

  /** The database with the roles and every migration on the classpath, once per instance. */
  static synchronized void prepararUmaVez(PostgresLocal postgres) {
    if (PREPARADOS.add(postgres)) {
      postgres.prepararBanco();
    }
  }
}
