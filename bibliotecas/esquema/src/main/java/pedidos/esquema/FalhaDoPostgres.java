package pedidos.esquema;

/**
 * What a failed statement means, from its SQLState alone, never from message text: the one reading
 * of PostgreSQL's error codes that the receptor (answer 503, retry row by row, or refuse the row)
 * and the aplicador (retry without limit, or count towards the dead-letter topic) act on. Exception
 * types without a SQLState (a pool that cannot hand out a connection, a refused connect) are each
 * service's to read: they are its driver's and framework's.
 */
public enum FalhaDoPostgres {
  /**
   * The database cannot take this work now, and will again by itself: it is down, starting,
   * shutting down or in recovery, out of resources, a statement or lock timed out, or the
   * connection is on a standby after a failover. Retry later.
   */
  INDISPONIVEL,
  /**
   * The transaction was rolled back (deadlock, serialization failure): the same work may succeed.
   */
  CONCORRENCIA,
  /** The database refused the data of a row (class 22 data exception, class 54 limits). */
  DADO_RECUSADO,
  /** Anything else: a bug or a schema mismatch, which retrying does not cure. */
  OUTRA;

  /**
   * @param estado a SQLState, or {@code null} when the failure had none
   */
  public static FalhaDoPostgres doSqlState(String estado) {
    if (estado == null || estado.length() != 5) {
      return OUTRA;
    }
    switch (estado) {
      case "55P03": // lock_not_available: our lock timeout
      case "25006": // read_only_sql_transaction: a standby after a failover
        return INDISPONIVEL;
      default:
        break;
    }
    switch (estado.substring(0, 2)) {
      case "08": // connection exception
      case "53": // insufficient resources: disk full, out of memory, too many connections
      case "57": // operator intervention: statement timeout, shutdown, starting up
      case "58": // system error: I/O
        return INDISPONIVEL;
      case "40": // transaction rollback: serialization failure, deadlock
        return CONCORRENCIA;
      case "22":
      case "54":
        return DADO_RECUSADO;
      default:
        return OUTRA;
    }
  }

  /** Whether the same work, tried again later, may well succeed. */
  public boolean transitoria() {
    return this == INDISPONIVEL || this == CONCORRENCIA;
  }
}
