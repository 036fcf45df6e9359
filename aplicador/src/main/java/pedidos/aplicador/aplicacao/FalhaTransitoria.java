package pedidos.aplicador.aplicacao;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import pedidos.esquema.FalhaDoPostgres;

/**
 * Whether a failure goes away by itself (the database restarting, a lock timeout, a deadlock
 * victim), so that retrying without limit is right, as opposed to a failure that would repeat
 * forever.
 */
public final class FalhaTransitoria {

  private FalhaTransitoria() {}

  public static boolean eh(Throwable falha) {
    for (Throwable causa = falha; causa != null; causa = causa.getCause()) {
      // A connection cut mid-transaction fails the statement (57P01, 08006) and then the rollback
      // ("Connection is closed", no SQLState); the rollback's exception is what is thrown, and the
      // statement's failure travels inside it.
      if (causa instanceof TransactionSystemException sistema
          && sistema.getApplicationException() != null
          && eh(sistema.getApplicationException())) {
        return true;
      }
      if (causa instanceof TransientDataAccessException
          || causa instanceof RecoverableDataAccessException
          || causa instanceof DataAccessResourceFailureException
          || causa instanceof CannotCreateTransactionException
          || causa instanceof SQLTransientException
          || causa instanceof ConnectException) {
        return true;
      }
      if (causa instanceof SQLException sql
          && FalhaDoPostgres.doSqlState(sql.getSQLState()).transitoria()) {
        return true;
      }
      if (causa.getCause() == causa) {
        break;
      }
    }
    return false;
  }
}
