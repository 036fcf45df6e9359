package pedidos.receptor;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;
import pedidos.dominio.MascaraDeEmail;

/**
 * What a failed statement means for the rows in it, decided by exception type and SQLState, never
 * by message text.
 */
enum FalhaDoBanco {
  /** The database cannot take writes now: answer 503 and let the provider redeliver. */
  INDISPONIVEL,
  /** The database refused the data of a row (class 22 data exception, class 54 limits). */
  DADO_RECUSADO,
  /** Deadlock or serialization failure: the same rows may well succeed on their own. */
  CONCORRENCIA,
  /** Anything else: a bug or a schema mismatch; retried row by row, then 503. */
  OUTRA;

  static FalhaDoBanco de(Throwable erro) {
    for (Throwable causa = erro; causa != null; causa = causa.getCause()) {
      // Hikari's "connection is not available" and a refused connect are these types, often
      // without a SQLState.
      if (causa instanceof SQLTransientConnectionException
          || causa instanceof SQLNonTransientConnectionException
          || causa instanceof SQLTimeoutException) {
        return INDISPONIVEL;
      }
      if (causa instanceof SQLException sql && sql.getSQLState() != null) {
        return deSqlState(sql.getSQLState());
      }
    }
    return OUTRA;
  }

  static FalhaDoBanco deSqlState(String estado) {
    if (estado.length() != 5) {
      return OUTRA;
    }
    switch (estado) {
      case "40001", "40P01":
        return CONCORRENCIA;
      case "57014", // query_canceled: our statement timeout
      "57P01", // admin_shutdown
      "57P02", // crash_shutdown
      "57P03", // cannot_connect_now: starting up or in recovery
      "55P03", // lock_not_available
      "25006": // read_only_sql_transaction: a standby after a failover
        return INDISPONIVEL;
      default:
        break;
    }
    switch (estado.substring(0, 2)) {
      case "08", // connection exception
      "53", // insufficient resources: disk full, out of memory, too many connections
      "58": // system error: I/O
        return INDISPONIVEL;
      case "22", "54":
        return DADO_RECUSADO;
      default:
        return OUTRA;
    }
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
