package pedidos.esquema;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every service checks of its database at start, and the one place migrations run from.
 *
 * <p>Services connect with roles that cannot change the schema, so they never migrate: they refuse
 * an unsupported PostgreSQL, warn when they are given a superuser anyway, and refuse a schema that
 * is not at their migrations. Migrations run before them, as the owner role ({@link #migrar}).
 */
public final class EsquemaNaPartida {

  private static final Logger log = LoggerFactory.getLogger(EsquemaNaPartida.class);

  static final String SUPERUSUARIO =
      "SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user";

  private EsquemaNaPartida() {}

  /** For each service's Flyway at start, in place of migrating. */
  public static void verificar(Flyway flyway) {
    DataSource dataSource = flyway.getConfiguration().getDataSource();
    VersaoDoPostgres.exigirSuportada(dataSource);
    avisarSeSuperusuario(dataSource);
    try {
      flyway.validate();
    } catch (FlywayValidateException e) {
      throw new IllegalStateException(
          "the database schema is not at this version's migrations; run the migration step first"
              + " (`java -jar aplicador.jar migrar` with the owner role, see"
              + " docs/papeis-do-banco.md): "
              + e.getMessage(),
          e);
    }
  }

  /** The migration step: every migration, as the owner role, on a supported server. */
  public static void migrar(String url, String usuario, String senha) {
    Flyway flyway =
        Flyway.configure()
            .dataSource(url, usuario, senha)
            .locations("classpath:db/migration")
            .load();
    VersaoDoPostgres.exigirSuportada(flyway.getConfiguration().getDataSource());
    var resultado = flyway.migrate();
    log.info(
        "schema at version {} ({} migrations applied now)",
        resultado.targetSchemaVersion,
        resultado.migrationsExecuted);
  }

  /** A superuser can read and change everything, and run programs on the database host. */
  static boolean avisarSeSuperusuario(DataSource dataSource) {
    try (Connection conexao = dataSource.getConnection();
        Statement consulta = conexao.createStatement();
        ResultSet linha = consulta.executeQuery(SUPERUSUARIO)) {
      if (linha.next() && linha.getBoolean(2)) {
        log.warn(
            "connected to PostgreSQL as {}, a superuser: this service needs only its own role's"
                + " grants (docs/papeis-do-banco.md, \"Database roles\")",
            linha.getString(1));
        return true;
      }
      return false;
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the database role's attributes", e);
    }
  }
}
