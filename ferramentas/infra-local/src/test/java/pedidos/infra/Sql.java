package pedidos.infra;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Tiny JDBC helpers so the tests read as SQL. */
final class Sql {

  private Sql() {}

  static String texto(PostgresLocal postgres, String consulta) throws SQLException {
    try (Connection conexao = conectar(postgres);
        Statement comando = conexao.createStatement();
        ResultSet resultado = comando.executeQuery(consulta)) {
      resultado.next();
      return resultado.getString(1);
    }
  }

  static void executar(PostgresLocal postgres, String... comandos) throws SQLException {
    try (Connection conexao = conectar(postgres);
        Statement comando = conexao.createStatement()) {
      for (String sql : comandos) {
        comando.execute(sql);
      }
    }
  }

  /** Through the public URL, the way a service connects, not through zonky's DataSource. */
  static Connection conectar(PostgresLocal postgres) throws SQLException {
    return DriverManager.getConnection(postgres.jdbcUrl(), postgres.usuario(), postgres.senha());
  }
}
