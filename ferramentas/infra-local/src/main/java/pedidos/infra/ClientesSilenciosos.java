package pedidos.infra;

import java.util.Map;

/**
 * The server's side of a client that vanished: settings every PostgreSQL of the system runs with
 * (this module's, and docker-compose.yml's, which {@code PapeisDoComposeTest} compares).
 *
 * <p>TCP keepalives end the backend of a client whose host is gone (no answer to probes: 30 s idle,
 * then 3 probes 10 s apart, about a minute). {@code client_connection_check_interval} ends a query
 * whose client closed its connection while the query runs (a cancelled request, a killed process),
 * instead of letting it finish for nobody. Neither helps when something between them keeps the
 * server's socket healthy (a proxy, a NAT or pooler that froze): that is what each service's {@code
 * idle_in_transaction_session_timeout} and {@code idle_session_timeout} are for (docs/runbook.md).
 */
public final class ClientesSilenciosos {

  /** In each setting's base unit (seconds; milliseconds for the check), as pg_settings shows it. */
  public static final Map<String, String> PARAMETROS =
      Map.of(
          "tcp_keepalives_idle", "30",
          "tcp_keepalives_interval", "10",
          "tcp_keepalives_count", "3",
          "client_connection_check_interval", "5000");

  private ClientesSilenciosos() {}
}
