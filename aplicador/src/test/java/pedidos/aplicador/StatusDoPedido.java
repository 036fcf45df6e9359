package pedidos.aplicador;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.springframework.jdbc.core.simple.JdbcClient;

/** An order's status as the applier left it in {@code pedidos}, for the tests that look at it. */
public final class StatusDoPedido {

  private StatusDoPedido() {}

  /** The order's status, or {@code null} while it has no row. */
  public static String atual(JdbcClient jdbc, String pedido) {
    return jdbc.sql("SELECT status FROM pedidos WHERE id = ?")
        .param(pedido)
        .query(String.class)
        .optional()
        .orElse(null);
  }

  /** Waits until the order has the status, failing the test if it has not within the time. */
  public static void aguardar(JdbcClient jdbc, String pedido, String status, Duration prazo) {
    await().atMost(prazo).until(() -> atual(jdbc, pedido), status::equals);
  }
}
