package pedidos.publicador;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.testes.PostgresDeTeste;

/**
 * Direct access to the shared PostgreSQL for arranging and checking, outside any relay: the relay's
 * own rows and slots.
 */
final class BancoDeTeste {

  static final JdbcClient JDBC = PostgresDeTeste.comoSuperusuario(PostgresDeTeste.compartilhado());

  private BancoDeTeste() {}

  static void inserirEvento(String eventoId, String recursoId, String tipo, String payload) {
    JDBC.sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
            VALUES (?, ?, ?, CAST(? AS jsonb))
            """)
        .params(eventoId, recursoId, tipo, payload)
        .update();
  }

  static void inserirEfeito(
      String pedidoId, String efeito, String status, Long total, String email) {
    JDBC.sql(
            """
            INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email)
            VALUES (?, ?, ?, ?, ?)
            """)
        .params(pedidoId, efeito, status, total, email)
        .update();
  }

  static long naoEnviados(String prefixoDoPedido) {
    return JDBC.sql("SELECT count(*) FROM outbox WHERE pedido_id LIKE ? AND enviado_em IS NULL")
        .param(prefixoDoPedido + "%")
        .query(Long.class)
        .single();
  }

  /** Drops a test's slot once its relays are closed, so it retains no WAL for later tests. */
  static void apagarSlot(String slot) {
    await("slot " + slot + " released")
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                JDBC.sql("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active")
                        .param(slot)
                        .query(Long.class)
                        .single()
                    == 0);
    JDBC.sql(
            "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                + " WHERE slot_name = ?")
        .param(slot)
        .query((rs, n) -> 1)
        .list();
  }
}
