package pedidos.esquema;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The PostgreSQL versions this system supports: those supported upstream when it was released, each
 * one run by the tests. Every service checks the server before it migrates or uses it, so an older
 * server fails at start with a message that names it, not at the first statement that needs a newer
 * feature (PostgreSQL 15 has no {@code pg_input_is_valid}, which once cost every redelivery a 503).
 */
public final class VersaoDoPostgres {

  /** The oldest major version supported; no SQL here may need a newer one. */
  public static final int MINIMA = 15;

  /** The newest major version tested. */
  public static final int MAXIMA = 18;

  static final String CONSULTAR =
      "SELECT current_setting('server_version_num')::int, current_setting('server_version')";

  private VersaoDoPostgres() {}

  /**
   * @throws IllegalStateException naming the server's version and the supported range
   */
  public static void exigirSuportada(DataSource dataSource) {
    try (Connection conexao = dataSource.getConnection();
        Statement consulta = conexao.createStatement();
        ResultSet linha = consulta.executeQuery(CONSULTAR)) {
      linha.next();
      Optional<String> recusa = recusa(linha.getInt(1), linha.getString(2));
      if (recusa.isPresent()) {
        throw new IllegalStateException(recusa.get());
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the PostgreSQL server's version", e);
    }
  }

  /**
   * @param numero {@code server_version_num}, e.g. 150013
   * @param texto {@code server_version}, e.g. "15.13"
   * @return why the server cannot be used, if it cannot
   */
  static Optional<String> recusa(int numero, String texto) {
    int maior = numero / 10_000;
    if (maior >= MINIMA && maior <= MAXIMA) {
      return Optional.empty();
    }
    return Optional.of(
        "PostgreSQL "
            + texto
            + " is not supported: this system supports PostgreSQL "
            + MINIMA
            + " to "
            + MAXIMA
            + (maior < MINIMA
                ? " (it needs features of " + MINIMA + ")"
                : " (newer versions are not tested yet)"));
  }
}
