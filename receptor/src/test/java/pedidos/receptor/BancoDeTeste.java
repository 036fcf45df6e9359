package pedidos.receptor;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.springframework.test.context.DynamicPropertyRegistry;
import pedidos.infra.InfraDeTeste;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;

/**
 * The test JVM's PostgreSQL for the receptor, from infra-local: started once, shared by every test
 * class, stopped when the JVM exits. Only PostgreSQL: the receptor never talks to Kafka, so the
 * broker of {@code InfraLocal.compartilhada()} would only cost start-up time and CPU here.
 */
public final class BancoDeTeste {

  private static PostgresLocal compartilhado;

  private BancoDeTeste() {}

  public static synchronized PostgresLocal compartilhado() {
    if (compartilhado == null) {
      PostgresLocal postgres = PostgresLocal.builder().fsync(false).iniciar();
      Runtime.getRuntime().addShutdownHook(new Thread(postgres::close, "receptor-pg-shutdown"));
      // As a deployment does before the receptor starts: roles, then migrations as the owner.
      InfraDeTeste.prepararUmaVez(postgres);
      compartilhado = postgres;
    }
    return compartilhado;
  }

  public static void registrar(DynamicPropertyRegistry registro) {
    registrar(registro, compartilhado());
  }

  /**
   * As the receptor's own role, on a database prepared as a deployment does (roles, migrations).
   */
  public static void registrar(DynamicPropertyRegistry registro, PostgresLocal postgres) {
    InfraDeTeste.prepararUmaVez(postgres);
    registro.add("spring.datasource.url", postgres::jdbcUrl);
    registro.add("spring.datasource.username", PapelNoBanco.RECEPTOR::nome);
    registro.add("spring.datasource.password", PapelNoBanco.RECEPTOR::senhaLocal);
  }

  public static long contar(PostgresLocal postgres, String sql, Object... parametros) {
    try (Connection conexao = conectar(postgres)) {
      return contar(conexao, sql, parametros);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static long contar(Connection conexao, String sql, Object... parametros) {
    try (PreparedStatement comando = conexao.prepareStatement(sql)) {
      for (int i = 0; i < parametros.length; i++) {
        comando.setObject(i + 1, parametros[i]);
      }
      try (ResultSet linhas = comando.executeQuery()) {
        linhas.next();
        return linhas.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String texto(PostgresLocal postgres, String sql, Object... parametros) {
    try (Connection conexao = conectar(postgres);
        PreparedStatement comando = conexao.prepareStatement(sql)) {
      for (int i = 0; i < parametros.length; i++) {
        comando.setObject(i + 1, parametros[i]);
      }
      try (ResultSet linhas = comando.executeQuery()) {
        return linhas.next() ? linhas.getString(1) : null;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static byte[] bytes(PostgresLocal postgres, String sql, Object... parametros) {
    try (Connection conexao = conectar(postgres);
        PreparedStatement comando = conexao.prepareStatement(sql)) {
      for (int i = 0; i < parametros.length; i++) {
        comando.setObject(i + 1, parametros[i]);
      }
      try (ResultSet linhas = comando.executeQuery()) {
        return linhas.next() ? linhas.getBytes(1) : null;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static Connection conectar(PostgresLocal postgres) throws SQLException {
    return DriverManager.getConnection(postgres.jdbcUrl(), postgres.usuario(), postgres.senha());
  }
}
