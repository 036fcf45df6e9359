package pedidos.aplicador.aplicacao;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.EventoGravado;
import pedidos.dominio.Resultado;
import pedidos.dominio.Status;

/**
 * The first round trip of the apply of several records together ({@link AplicacaoEmLote}): store
 * the records' events the inbox lacks, lock all their orders in one fixed order, read those orders.
 * {@link LeitorDoPedido}'s pipeline, for a sub-batch instead of one event: the same three steps,
 * each statement taking its snapshot after the one before it finished, so the read sees what each
 * lock's previous holder committed.
 */
final class LeitorDoLote {

  // CaixaDeEntrada.GUARDAR_SE_AUSENTE for every record, in their order; the receptor's row, when
  // present, wins. The caller passes each event once.
  static final String GUARDAR_SE_AUSENTES =
      """
      INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
      SELECT r.evento_id, r.recurso_id, r.tipo, r.payload::jsonb,
             COALESCE(CAST(r.recebido_em AS timestamptz), now())
        FROM unnest(CAST(:eventoIds AS text[]), CAST(:recursoIds AS text[]), CAST(:tipos AS text[]),
                    CAST(:payloads AS text[]), CAST(:recebidos AS text[]))
             WITH ORDINALITY AS r (evento_id, recurso_id, tipo, payload, recebido_em, ordem)
       ORDER BY r.ordem
      ON CONFLICT (evento_id) DO NOTHING
      """;

  // LeitorDoPedido.TRAVAR_PEDIDOS, keyed by the stored events' orders (the receptor's row wins, as
  // in the single apply): their keys ascending, so two transactions of several orders never wait
  // for each other in a cycle. It also makes the statements after it use their generic plans, as
  // LeitorDoPedido.TRAVAR_PEDIDO says why.
  static final String TRAVAR_PEDIDOS_DOS_EVENTOS =
      """
      SELECT count(pg_advisory_xact_lock(t.chave)) AS travados
        FROM (SELECT set_config('lock_timeout', :milissegundos, true),
                     set_config('plan_cache_mode', 'force_generic_plan', true)) AS espera,
             (SELECT DISTINCT hashtextextended(e.recurso_id, 0) AS chave
                FROM webhook_eventos e
               WHERE e.evento_id = ANY(CAST(:eventoIds AS text[]))
               ORDER BY 1) AS t
      """;

  // LeitorDoPedido.LER_PEDIDO for all the orders at once: the records' events in whatever state,
  // and each order's facts applied so far, with the order's row on every line.
  static final String LER_PEDIDOS =
      """
      SELECT f.recurso_id, f.evento_id, f.tipo, f.payload::text AS payload,
             f.aplicado_em IS NOT NULL AS aplicado, f.resultado,
             p.status, p.versao_origem, p.total_centavos, p.cliente_email
        FROM webhook_eventos f
        LEFT JOIN pedidos p ON p.id = f.recurso_id
       WHERE f.recurso_id IN (SELECT recurso_id FROM webhook_eventos
                               WHERE evento_id = ANY(CAST(:eventoIds AS text[])))
         AND (f.evento_id = ANY(CAST(:eventoIds AS text[]))
              OR (f.aplicado_em IS NOT NULL AND f.resultado IS DISTINCT FROM :falhaDeAplicacao))
      """;

  private static final String GUARDAR_TRAVAR_E_LER =
      GUARDAR_SE_AUSENTES + ";\n" + TRAVAR_PEDIDOS_DOS_EVENTOS + ";\n" + LER_PEDIDOS;

  /**
   * What was read under the locks.
   *
   * @param pedidoDoEvento each record's event's order, as stored
   * @param estados the orders' stored rows; an order without one is absent
   * @param eventos by order: the records' events of it, and its facts applied so far (as {@link
   *     LeitorDoPedido} reads them for one event)
   */
  record LoteLido(
      Map<String, String> pedidoDoEvento,
      Map<String, EstadoDoPedido> estados,
      Map<String, List<EventoGravado>> eventos) {}

  private final NamedParameterJdbcTemplate pipeline;
  private final LeitorDeEventos leitor = new LeitorDeEventos();
  private final Duration esperaPorLock;

  LeitorDoLote(NamedParameterJdbcTemplate pipeline, Duration esperaPorLock) {
    this.pipeline = pipeline;
    this.esperaPorLock = esperaPorLock;
  }

  /**
   * @param eventos the records' events, each once
   */
  LoteLido guardarTravarELer(List<RegistroDeEvento> eventos) {
    int n = eventos.size();
    String[] ids = new String[n];
    String[] recursos = new String[n];
    String[] tipos = new String[n];
    String[] payloads = new String[n];
    String[] recebidos = new String[n];
    for (int i = 0; i < n; i++) {
      RegistroDeEvento evento = eventos.get(i);
      ids[i] = evento.eventoId();
      recursos[i] = evento.recursoId();
      tipos[i] = evento.tipo();
      payloads[i] = evento.payload();
      recebidos[i] = evento.recebidoEm() == null ? null : evento.recebidoEm().toString();
    }
    var parametros =
        new MapSqlParameterSource()
            .addValue("eventoIds", ids)
            .addValue("recursoIds", recursos)
            .addValue("tipos", tipos)
            .addValue("payloads", payloads)
            .addValue("recebidos", recebidos)
            .addValue("milissegundos", String.valueOf(esperaPorLock.toMillis()))
            .addValue("falhaDeAplicacao", Resultado.FALHA_DE_APLICACAO.codigo());
    return pipeline.execute(
        GUARDAR_TRAVAR_E_LER,
        parametros,
        (PreparedStatement comando) -> {
          comando.execute();
          comando.getMoreResults(); // past the insert's count, to the locks
          comando.getMoreResults(); // past the locks, to the read
          try (ResultSet rs = comando.getResultSet()) {
            return ler(rs);
          }
        });
  }

  private LoteLido ler(ResultSet rs) throws SQLException {
    Map<String, String> pedidoDoEvento = new HashMap<>();
    Map<String, EstadoDoPedido> estados = new HashMap<>();
    Map<String, List<EventoGravado>> eventos = new LinkedHashMap<>();
    while (rs.next()) {
      String pedidoId = rs.getString("recurso_id");
      String id = rs.getString("evento_id");
      pedidoDoEvento.put(id, pedidoId);
      eventos
          .computeIfAbsent(pedidoId, p -> new ArrayList<>())
          .add(
              new EventoGravado(
                  id,
                  leitor.interpretar(id, rs.getString("tipo"), rs.getString("payload")),
                  rs.getBoolean("aplicado"),
                  rs.getString("resultado")));
      String status = rs.getString("status");
      if (status != null) {
        estados.put(
            pedidoId,
            new EstadoDoPedido(
                Status.doCodigo(status),
                rs.getLong("versao_origem"),
                rs.getObject("total_centavos", Long.class),
                rs.getString("cliente_email")));
      }
    }
    return new LoteLido(pedidoDoEvento, estados, eventos);
  }
}
