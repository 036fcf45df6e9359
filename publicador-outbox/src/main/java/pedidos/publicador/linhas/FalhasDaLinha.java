package pedidos.publicador.linhas;

import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import tools.jackson.core.JacksonException;

/**
 * Tells a row's own failure from the relay's.
 *
 * <p>A row's own failure comes again every time that row is tried, and only for it: it cannot be
 * encoded (a number or a nesting outside the parser's limits, a field missing), or Kafka refuses
 * its record whatever the moment (too large, malformed). Stopping for it would stop the relay
 * forever; such a row is dead-lettered and the stream goes on.
 *
 * <p>Everything else is the relay's failure and stops the engine as before, to be retried with its
 * back-off: Kafka or the database unreachable, timeouts, retriable errors, authorization,
 * configuration. The list of a row's failures is closed on purpose: an unknown failure stops the
 * relay (visible, retried) rather than dead-lettering rows that would have gone through a minute
 * later.
 */
public final class FalhasDaLinha {

  private FalhasDaLinha() {}

  /** The failure that is the row's own, in {@code falha} or its causes; null if it is none. */
  public static Throwable daLinha(Throwable falha) {
    Throwable daLinha = null;
    Set<Throwable> vistas = new HashSet<>();
    for (Throwable t = falha; t != null && vistas.add(t); t = t.getCause()) {
      if (t instanceof RetriableException) {
        // Whatever wraps it, a retriable error is a moment's, not the row's.
        return null;
      }
      if (daLinha == null && propriaDaLinha(t)) {
        daLinha = t;
      }
    }
    return daLinha;
  }

  private static boolean propriaDaLinha(Throwable t) {
    return t instanceof MudancaIlegivelException
        || t instanceof JacksonException
        || t instanceof RecordTooLargeException
        || t instanceof RecordBatchTooLargeException
        || t instanceof InvalidRecordException
        || t instanceof SerializationException;
  }
}
