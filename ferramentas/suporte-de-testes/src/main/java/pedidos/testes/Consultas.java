package pedidos.testes;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The one-value queries a test checks the database with, on any database: the embedded one, a
 * compose stack's, or a connection a test holds open.
 */
public final class Consultas {

  private final DataSource fonte;
  private final JdbcClient jdbc;

  private Consultas(DataSource fonte) {
    this.fonte = fonte;
    this.jdbc = JdbcClient.create(fonte);
  }

  public static Consultas de(DataSource fonte) {
    return new Consultas(fonte);
  }

  /** A new connection for each query: what a test outside the server's JVM has. */
  public static Consultas de(String url, String usuario, String senha) {
    return new Consultas(new DriverManagerDataSource(url, usuario, senha));
  }

  /** On a connection the test holds, and keeps open: its session's settings and locks stay. */
  public static Consultas de(Connection conexao) {
    return new Consultas(new SingleConnectionDataSource(conexao, true));
  }

  /** The first column of the only row; SQL's NULL counts as 0. */
  public long contar(String sql, Object... parametros) {
    return jdbc.sql(sql).params(parametros).query((linha, n) -> linha.getLong(1)).single();
  }

  /** The first column of the first row, or null when there is no row. */
  public String texto(String sql, Object... parametros) {
    return primeira(
        jdbc.sql(sql).params(parametros).query((linha, n) -> linha.getString(1)).list());
  }

  /** The first column of the first row, or null when there is no row. */
  public byte[] bytes(String sql, Object... parametros) {
    return primeira(jdbc.sql(sql).params(parametros).query((linha, n) -> linha.getBytes(1)).list());
  }

  /** The first column of every row. */
  public List<String> textos(String sql, Object... parametros) {
    return jdbc.sql(sql).params(parametros).query((linha, n) -> linha.getString(1)).list();
  }

  /**
   * The plan PostgreSQL chooses for a statement (its parameters written in as literals) with
   * sequential scans priced out: on a test's small tables the planner would scan them whole anyway,
   * so this shows whether an index can serve the statement at all.
   */
  public String planoSemVarreduraSequencial(String sqlComLiterais) {
    try (Connection conexao = fonte.getConnection();
        Statement comando = conexao.createStatement()) {
      conexao.setAutoCommit(false);
      try {
        comando.execute("SET LOCAL enable_seqscan = off");
        StringBuilder plano = new StringBuilder();
        try (ResultSet linhas = comando.executeQuery("EXPLAIN " + sqlComLiterais)) {
          while (linhas.next()) {
            plano.append(linhas.getString(1)).append('\n');
          }
        }
        return plano.toString();
      } finally {
        conexao.rollback();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("EXPLAIN failed: " + sqlComLiterais, e);
    }
  }

  private static <T> T primeira(List<T> linhas) {
    return linhas.isEmpty() ? null : linhas.get(0);
  }
}
