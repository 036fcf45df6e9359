package pedidos.receptor;

import java.sql.Connection;
import java.sql.SQLException;
import org.springframework.test.context.DynamicPropertyRegistry;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.testes.Consultas;
import pedidos.testes.PostgresDeTeste;

/**
 * The test JVM's PostgreSQL for the receptor: only PostgreSQL ({@link PostgresDeTeste#semKafka()}),
 * since the receptor never talks to Kafka; checked as the superuser, outside the receptor's
 * privileges.
 */
public final class BancoDeTeste {

  private BancoDeTeste() {}

  public static PostgresLocal compartilhado() {
    return PostgresDeTeste.semKafka();
  }

  public static void registrar(DynamicPropertyRegistry registro) {
    registrar(registro, compartilhado());
  }

  /**
   * As the receptor's own role, on a database prepared as a deployment does (roles, migrations).
   */
  public static void registrar(DynamicPropertyRegistry registro, PostgresLocal postgres) {
    PostgresDeTeste.registrar(registro, postgres, PapelNoBanco.RECEPTOR);
  }

  public static long contar(PostgresLocal postgres, String sql, Object... parametros) {
    return Consultas.de(postgres.dataSource()).contar(sql, parametros);
  }

  public static long contar(Connection conexao, String sql, Object... parametros) {
    return Consultas.de(conexao).contar(sql, parametros);
  }

  public static String texto(PostgresLocal postgres, String sql, Object... parametros) {
    return Consultas.de(postgres.dataSource()).texto(sql, parametros);
  }

  public static byte[] bytes(PostgresLocal postgres, String sql, Object... parametros) {
    return Consultas.de(postgres.dataSource()).bytes(sql, parametros);
  }

  public static Connection conectar(PostgresLocal postgres) throws SQLException {
    return postgres.dataSource().getConnection();
  }
}
