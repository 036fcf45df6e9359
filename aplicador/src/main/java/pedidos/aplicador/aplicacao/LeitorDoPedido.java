package pedidos.aplicador.aplicacao;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.EventoGravado;
import pedidos.dominio.Resultado;
import pedidos.dominio.Status;

/**
 * The apply's first round trip: [store the listener's record;] lock the event's order; read the
 * order. What it returns is what {@link pedidos.dominio.PoliticaDeAplicacao} decides on.
 *
 * <p>Two round trips do an apply's work, plus the commit: on two cores the round trips, not the
 * rows, are the cost (docs/BENCHMARKS-ponta-a-ponta.md). This one sends the insert, the lock and
 * the read together, as one pipeline: PostgreSQL runs them in order, and in READ COMMITTED each
 * statement takes its snapshot when it starts, so the read sees what the lock's previous holder
 * committed.
 */
final class LeitorDoPedido {

  // The order of the stored event, and its advisory lock: it serializes the facts of one order even
  // when the order's row does not exist yet, where a SELECT ... FOR UPDATE would have nothing to
  // lock. The lock_timeout is set first (the subquery in FROM is evaluated before the projection
  // that locks): a lock held too long (a stuck session) fails this apply instead of stalling its
  // partition, and the caller retries it as a transient failure.
  // The same subquery makes the transaction's statements use their generic plans. PostgreSQL gave
  // the write (GravadorDaAplicacao.GRAVAR_APLICACAO) a custom plan, planned anew at every
  // execution, because a generic plan assumes ten elements in each array parameter and so looks
  // dearer, though its shape is the same: planning it anew for every apply was a large share of the
  // backend's CPU (docs/BENCHMARKS-ponta-a-ponta.md, "Analysis").
  static final String TRAVAR_PEDIDO =
      """
      SELECT e.recurso_id, pg_advisory_xact_lock(hashtextextended(e.recurso_id, 0))::text AS travado
        FROM (SELECT set_config('lock_timeout', :milissegundos, true),
                     set_config('plan_cache_mode', 'force_generic_plan', true)) AS espera,
             webhook_eventos e
       WHERE e.evento_id = :eventoId
      """;

  static final String TENTAR_TRAVAR_PEDIDO =
      """
      SELECT e.recurso_id, pg_try_advisory_xact_lock(hashtextextended(e.recurso_id, 0))::text AS travado
        FROM (SELECT set_config('lock_timeout', :milissegundos, true),
                     set_config('plan_cache_mode', 'force_generic_plan', true)) AS espera,
             webhook_eventos e
       WHERE e.evento_id = :eventoId
      """;

  // The advisory locks of several orders, in one global order (their keys ascending), for a
  // transaction that applies the facts of them all: two such transactions never wait for each other
  // in a cycle. The apply of each fact then takes its order's lock again, which it already holds.
  static final String TRAVAR_PEDIDOS =
      """
      SELECT count(pg_advisory_xact_lock(t.chave)) AS travados
        FROM (SELECT set_config('lock_timeout', :milissegundos, true)) AS espera,
             (SELECT DISTINCT hashtextextended(id, 0) AS chave
                FROM unnest(CAST(:pedidos AS text[])) AS id
               ORDER BY 1) AS t
      """;

  // After the lock: the event, the order's facts applied so far, and the order's row (on every
  // line; absent for a new order). No row lock: every writer of a verdict holds the order's lock.
  // A row settled as falha_de_aplicacao was never applied: it is not a fact of the order until a
  // forced replay applies it. The policy leaves such rows, and pending ones, out of the fold
  // anyway (EventoGravado.fatoDoPedido); not reading them saves the rows.
  // When the try-lock failed this still runs, and its answer is ignored.
  static final String LER_PEDIDO =
      """
      SELECT f.evento_id, f.tipo, f.payload::text AS payload, f.aplicado_em IS NOT NULL AS aplicado,
             f.resultado, p.status, p.versao_origem, p.total_centavos, p.cliente_email
        FROM webhook_eventos f
        LEFT JOIN pedidos p ON p.id = f.recurso_id
       WHERE f.recurso_id = (SELECT recurso_id FROM webhook_eventos WHERE evento_id = :eventoId)
         AND (f.evento_id = :eventoId
              OR (f.aplicado_em IS NOT NULL AND f.resultado IS DISTINCT FROM :falhaDeAplicacao))
      """;

  // The four pipelines, built once: an apply runs one per event, and the statement caches of
  // Spring and pgjdbc key on the text.
  private static final String TRAVAR_E_LER = TRAVAR_PEDIDO + ";\n" + LER_PEDIDO;
  private static final String TENTAR_TRAVAR_E_LER = TENTAR_TRAVAR_PEDIDO + ";\n" + LER_PEDIDO;
  private static final String GUARDAR_TRAVAR_E_LER =
      CaixaDeEntrada.GUARDAR_SE_AUSENTE + ";\n" + TRAVAR_E_LER;
  private static final String GUARDAR_TENTAR_TRAVAR_E_LER =
      CaixaDeEntrada.GUARDAR_SE_AUSENTE + ";\n" + TENTAR_TRAVAR_E_LER;

  /**
   * What the apply read of an order under its lock.
   *
   * @param evento the event to apply; {@code null} when the inbox lost it
   * @param outros the order's other facts applied so far
   * @param estado the order's stored row; {@code null} before its first apply
   */
  record PedidoLido(
      String pedidoId, EventoGravado evento, List<EventoGravado> outros, EstadoDoPedido estado) {}

  private final NamedParameterJdbcTemplate pipeline;
  private final LeitorDeEventos leitor = new LeitorDeEventos();
  private final Duration esperaPorLock;

  LeitorDoPedido(NamedParameterJdbcTemplate pipeline, Duration esperaPorLock) {
    this.pipeline = pipeline;
    this.esperaPorLock = esperaPorLock;
  }

  /**
   * @param espera whether to wait for an order that another apply holds
   * @return empty when the event is not stored, or its order is busy and {@code espera} is false
   */
  Optional<PedidoLido> travarELer(String eventoId, boolean espera) {
    return executar(
        espera ? TRAVAR_E_LER : TENTAR_TRAVAR_E_LER, eventoId, parametros(eventoId), false);
  }

  /** The same, storing the record's event first if the inbox lacks it. */
  Optional<PedidoLido> guardarTravarELer(RegistroDeEvento guardar, boolean espera) {
    var parametros =
        parametros(guardar.eventoId())
            .addValue("recursoId", guardar.recursoId())
            .addValue("tipo", guardar.tipo())
            .addValue("payload", guardar.payload())
            .addValue("recebidoEm", CaixaDeEntrada.instante(guardar.recebidoEm()));
    return executar(
        espera ? GUARDAR_TRAVAR_E_LER : GUARDAR_TENTAR_TRAVAR_E_LER,
        guardar.eventoId(),
        parametros,
        true);
  }

  private MapSqlParameterSource parametros(String eventoId) {
    return new MapSqlParameterSource()
        .addValue("eventoId", eventoId)
        .addValue("milissegundos", String.valueOf(esperaPorLock.toMillis()))
        .addValue("falhaDeAplicacao", Resultado.FALHA_DE_APLICACAO.codigo());
  }

  /**
   * @param guarda whether the pipeline begins with the insert, whose count is skipped
   */
  private Optional<PedidoLido> executar(
      String sql, String eventoId, MapSqlParameterSource parametros, boolean guarda) {
    return pipeline.execute(
        sql,
        parametros,
        (PreparedStatement comando) -> {
          comando.execute();
          if (guarda) {
            comando.getMoreResults();
          }
          String pedidoId = null;
          boolean travado = false;
          try (ResultSet rs = comando.getResultSet()) {
            if (rs.next()) {
              pedidoId = rs.getString("recurso_id");
              travado = !"false".equals(rs.getString("travado"));
            }
          }
          comando.getMoreResults();
          if (pedidoId == null || !travado) {
            return Optional.empty();
          }
          try (ResultSet rs = comando.getResultSet()) {
            return Optional.of(lerPedido(pedidoId, eventoId, rs));
          }
        });
  }

  /** Locks the orders' advisory locks, ascending by key, until the transaction ends. */
  void travarEmOrdem(Collection<String> pedidoIds) {
    pipeline.queryForObject(
        TRAVAR_PEDIDOS,
        new MapSqlParameterSource()
            .addValue("milissegundos", String.valueOf(esperaPorLock.toMillis()))
            .addValue("pedidos", pedidoIds.toArray(String[]::new)),
        Long.class);
  }

  private PedidoLido lerPedido(String pedidoId, String eventoId, ResultSet rs) throws SQLException {
    EventoGravado evento = null;
    List<EventoGravado> outros = new ArrayList<>();
    EstadoDoPedido estado = null;
    while (rs.next()) {
      String id = rs.getString("evento_id");
      EventoGravado gravado =
          new EventoGravado(
              id,
              leitor.interpretar(id, rs.getString("tipo"), rs.getString("payload")),
              rs.getBoolean("aplicado"),
              rs.getString("resultado"));
      if (id.equals(eventoId)) {
        evento = gravado;
      } else {
        outros.add(gravado);
      }
      String status = rs.getString("status");
      if (status != null) {
        estado =
            new EstadoDoPedido(
                Status.doCodigo(status),
                rs.getLong("versao_origem"),
                rs.getObject("total_centavos", Long.class),
                rs.getString("cliente_email"));
      }
    }
    return new PedidoLido(pedidoId, evento, outros, estado);
  }
}
