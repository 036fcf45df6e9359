package pedidos.receptor.gravacao;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;
import pedidos.contrato.MascaraDeEmail;
import pedidos.esquema.FalhaDoPostgres;

/**
 * What a failed statement means for the rows in it, decided by exception type and SQLState, never
 * by message text. The SQLState's meaning is the one every service reads ({@link FalhaDoPostgres});
 * the exception types without one are JDBC's and Hikari's, read here.
 */
public final class FalhaDoBanco {

  private FalhaDoBanco() {}

  /**
   * {@link FalhaDoPostgres#INDISPONIVEL}: answer 503 and let the provider redeliver; {@link
   * FalhaDoPostgres#DADO_RECUSADO}: the row's data is refused (quarantine, 400); the others are
   * retried row by row, then 503.
   */
  public static FalhaDoPostgres de(Throwable erro) {
    for (Throwable causa = erro; causa != null; causa = causa.getCause()) {
      // Hikari's "connection is not available" and a refused connect are these types, often
      // without a SQLState.
      if (causa instanceof SQLTransientConnectionException
          || causa instanceof SQLNonTransientConnectionException
          || causa instanceof SQLTimeoutException) {
        return FalhaDoPostgres.INDISPONIVEL;
      }
      if (causa instanceof SQLException sql && sql.getSQLState() != null) {
        return FalhaDoPostgres.doSqlState(sql.getSQLState());
      }
    }
    return FalhaDoPostgres.OUTRA;
  }

  /** SQLState and PostgreSQL's own message, for the quarantine reason and the logs. */
  static String descrever(Throwable erro) {
    for (Throwable causa = erro; causa != null; causa = causa.getCause()) {
      if (causa instanceof PSQLException psql && psql.getServerErrorMessage() != null) {
        ServerErrorMessage mensagem = psql.getServerErrorMessage();
        // Logged: PostgreSQL's message may quote a value of the row (an email); masked.
        return "SQLSTATE "
            + mensagem.getSQLState()
            + ": "
            + MascaraDeEmail.mascararNoTexto(mensagem.getMessage());
      }
      if (causa instanceof SQLException sql) {
        return "SQLSTATE "
            + sql.getSQLState()
            + ": "
            + MascaraDeEmail.mascararNoTexto(sql.getMessage());
      }
    }
    return MascaraDeEmail.mascararNoTexto(String.valueOf(erro));
  }
}
