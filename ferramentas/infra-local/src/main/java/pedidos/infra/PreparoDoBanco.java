package pedidos.infra;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * What a deployment's administrator and its migration step do before the services start, written
 * once for the Java side: the system's roles ({@link PapelNoBanco}; the relay's with {@code
 * REPLICATION}), the owner role made owner of the database and of whatever an older version created
 * there as a superuser, then every migration run as the owner. {@link PostgresLocal} (the tests,
 * the local launcher, the end-to-end benchmark) and the benchmark scripts that run their own
 * PostgreSQL ({@code ferramentas/bancada}'s {@code PrepararBanco}) use it. The compose stack's
 * {@code docker/postgres/10-papeis.sh} creates the same roles, with real passwords.
 */
public final class PreparoDoBanco {

  private static final String CRIAR_PAPEL =
      """
      DO $$
      BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '%s') THEN
          CREATE ROLE %s LOGIN %s PASSWORD '%s';
        END IF;
      END $$
      """;

  /** Tables, sequences and the publication a superuser created (an older version migrated so). */
  private static final String ADOTAR_OBJETOS =
      """
      DO $$
      DECLARE
        objeto record;
      BEGIN
        FOR objeto IN
          SELECT format('ALTER TABLE %%I OWNER TO %%I', c.relname, '%1$s') AS comando
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
             AND pg_get_userbyid(c.relowner) <> '%1$s'
          UNION ALL
          SELECT format('ALTER PUBLICATION %%I OWNER TO %%I', pubname, '%1$s')
            FROM pg_publication WHERE pg_get_userbyid(pubowner) <> '%1$s'
        LOOP
          EXECUTE objeto.comando;
        END LOOP;
      END $$
      """;

  private PreparoDoBanco() {}

  /** The roles and the ownership, through a superuser's connection to the database. Idempotent. */
  public static void prepararPapeis(DataSource superusuario, String banco) {
    try (Connection conexao = superusuario.getConnection();
        Statement comando = conexao.createStatement()) {
      for (PapelNoBanco papel : PapelNoBanco.values()) {
        comando.execute(
            CRIAR_PAPEL.formatted(
                papel.nome(),
                papel.nome(),
                papel == PapelNoBanco.PUBLICADOR ? "REPLICATION" : "NOREPLICATION",
                papel.senhaLocal()));
      }
      comando.execute("ALTER DATABASE " + banco + " OWNER TO " + PapelNoBanco.DONO.nome());
      comando.execute(ADOTAR_OBJETOS.formatted(PapelNoBanco.DONO.nome()));
    } catch (SQLException e) {
      throw new IllegalStateException("could not create the system's roles", e);
    }
  }

  /**
   * The roles ({@link #prepararPapeis}), then every migration on the classpath, run as the owner
   * role at {@code jdbcUrl} (the local password: local servers trust their clients).
   */
  public static void prepararBanco(DataSource superusuario, String jdbcUrl) {
    String banco;
    try (Connection conexao = superusuario.getConnection()) {
      banco = conexao.getCatalog();
    } catch (SQLException e) {
      throw new IllegalStateException("could not connect to " + jdbcUrl, e);
    }
    prepararPapeis(superusuario, banco);
    Flyway.configure()
        .dataSource(jdbcUrl, PapelNoBanco.DONO.nome(), PapelNoBanco.DONO.senhaLocal())
        .locations("classpath:db/migration")
        .load()
        .migrate();
  }
}
