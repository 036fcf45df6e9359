package pedidos.bancada;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A history written before the relay's slot exists ({@code snapshot.mode=no_data}: none of it is
 * streamed): orders applied a day ago, with their events and effects, as a database in production
 * has. On an empty {@code pedidos} table the aplicador's cached plan for its lookup by id is a
 * sequential scan until autovacuum analyzes the table, which an early run measured. Same shape as
 * the load ({@link CargaConstante#corpo}).
 */
final class HistoricoDaBancada {

  private static final String INSERIR =
      """
      INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em, aplicado_em,
                                   resultado)
        SELECT 'hist_' || k, 'ord_hist_' || ((k / (3 * %2$d)) * %2$d + k %% %2$d),
               (ARRAY['order.created', 'order.paid', 'order.shipped'])[e + 1],
               jsonb_build_object(
                 'id', 'hist_' || k,
                 'type', (ARRAY['order.created', 'order.paid', 'order.shipped'])[e + 1],
                 'occurred_at', to_char((now() - interval '1 day' + k * interval '1 millisecond')
                                        AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'sequence', e + 1,
                 'data', jsonb_build_object(
                   'id', 'ord_hist_' || ((k / (3 * %2$d)) * %2$d + k %% %2$d),
                   'status', (ARRAY['open', 'paid', 'shipped'])[e + 1],
                   'total_cents', 1990, 'customer_email', 'cliente@example.com')),
               now() - interval '1 day', now() - interval '1 day', 'aplicado'
          FROM generate_series(0, 3 * %1$d - 1) AS k,
               LATERAL (SELECT ((k %% (3 * %2$d)) / %2$d)::int AS e) x
         ORDER BY k;
      INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem, atualizado_em)
        SELECT 'ord_hist_' || k, 'enviado', 1990, 'cliente@example.com', 3,
               now() - interval '1 day'
          FROM generate_series(0, %1$d - 1) k;
      INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email, criado_em,
                          enviado_em)
        SELECT 'ord_hist_' || k, 'liberar_separacao', 'pago', 1990, 'cliente@example.com',
               now() - interval '1 day', now() - interval '1 day'
          FROM generate_series(0, %1$d - 1) k;
      """;

  private HistoricoDaBancada() {}

  /** {@code pedidos} orders, three events each; then VACUUM ANALYZE and a checkpoint. */
  static void escrever(DataSource banco, int pedidos, int pedidosPorBloco) throws SQLException {
    try (Connection conexao = banco.getConnection();
        Statement comando = conexao.createStatement()) {
      if (pedidos > 0) {
        comando.execute(INSERIR.formatted(pedidos, pedidosPorBloco));
      }
      comando.execute("VACUUM ANALYZE");
      comando.execute("CHECKPOINT");
    }
  }
}
