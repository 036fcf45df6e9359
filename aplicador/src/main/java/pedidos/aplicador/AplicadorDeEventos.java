package pedidos.aplicador;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.dominio.Aplicacao;
import pedidos.dominio.Efeito;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.Fato;
import pedidos.dominio.Interpretacao;
import pedidos.dominio.MascaraDeEmail;
import pedidos.dominio.Resultado;
import pedidos.dominio.Status;

/**
 * Applies one stored event, in one transaction: the single path that the Kafka listener, the sweep,
 * reconciliation and replay all take.
 *
 * <p>The only lock is the order's advisory lock. The seed locked the event row ({@code FOR UPDATE
 * SKIP LOCKED}), but an apply here also rewrites the results of the order's other facts, so two
 * applies of the same order holding one row each would deadlock. Under the advisory lock no one
 * else writes the order's rows, and an apply of the same event that waited finds it applied and
 * does nothing, which is what SKIP LOCKED gave the seed.
 */
@Component
class AplicadorDeEventos {

  private static final Logger log = LoggerFactory.getLogger(AplicadorDeEventos.class);

  // Two round trips do the work, plus the commit: on two cores the round trips, not the rows, were
  // the cost (one statement a step took eleven per event, and as much CPU in system calls as in
  // the statements). The first sends the listener's insert, the lock and the read together, as
  // one pipeline: PostgreSQL runs them in order, and in READ COMMITTED each statement takes its
  // snapshot when it starts, so the read sees what the lock's previous holder committed.

  // The order of the stored event, and its advisory lock: it serializes the facts of one order even
  // when the order's row does not exist yet, where a SELECT ... FOR UPDATE would have nothing to
  // lock. The lock_timeout is set first (the subquery in FROM is evaluated before the projection
  // that locks): a lock held too long (a stuck session) fails this apply instead of stalling its
  // partition, and the caller retries it as a transient failure.
  // The same subquery makes the transaction's statements use their generic plans. PostgreSQL gave
  // the write (GRAVAR_APLICACAO) a custom plan, planned anew at every execution, because a generic
  // plan assumes ten elements in each array parameter and so looks dearer, though its shape is the
  // same: planning it for zero or one element was over a quarter of the backend's CPU per
  // apply (measured with pgjdbc alone: 1.02 -> 0.74 ms per transaction).
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

  // After the lock: the event, the order's facts applied so far, and the order's row (on every
  // line; absent for a new order). No row lock: every writer of a verdict holds the order's lock.
  // A row settled as falha_de_aplicacao was never applied: it is not a fact of the order until a
  // forced replay applies it.
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

  // Everything the apply decided, in one statement: the order's new state, the effects that are new
  // (returned: a repeated effect is not recorded twice), the event's verdict, and the corrected
  // verdicts of the order's other facts (a late fact can change them). The two updates of the inbox
  // touch different rows.
  static final String GRAVAR_APLICACAO =
      """
      WITH estado AS (
        INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem)
        VALUES (:pedidoId, :status, :total, :email, :versao)
        ON CONFLICT (id) DO UPDATE
           SET status = EXCLUDED.status,
               total_centavos = EXCLUDED.total_centavos,
               cliente_email = EXCLUDED.cliente_email,
               versao_origem = EXCLUDED.versao_origem,
               atualizado_em = now()
         WHERE (pedidos.status, pedidos.total_centavos, pedidos.cliente_email, pedidos.versao_origem)
               IS DISTINCT FROM
               (EXCLUDED.status, EXCLUDED.total_centavos, EXCLUDED.cliente_email, EXCLUDED.versao_origem)
      ), efeitos AS (
        INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email)
        SELECT :pedidoId, efeito, :status, :total, :email
          FROM unnest(CAST(:efeitos AS text[])) AS efeito
        ON CONFLICT DO NOTHING
        RETURNING efeito
      ), assentado AS (
        UPDATE webhook_eventos
           SET aplicado_em = COALESCE(aplicado_em, now()), resultado = :resultado, motivo = NULL
         WHERE evento_id = :eventoId
      ), corrigidos AS (
        UPDATE webhook_eventos w
           SET resultado = c.resultado
          FROM unnest(CAST(:corrigidos AS text[]), CAST(:veredictos AS text[])) AS c (evento_id, resultado)
         WHERE w.evento_id = c.evento_id AND w.evento_id <> :eventoId
      )
      SELECT efeito FROM efeitos
      """;

  // The four pipelines, built once: an apply runs one per event, and the statement caches of
  // Spring and pgjdbc key on the text.
  private static final String TRAVAR_E_LER = TRAVAR_PEDIDO + ";\n" + LER_PEDIDO;
  private static final String TENTAR_TRAVAR_E_LER = TENTAR_TRAVAR_PEDIDO + ";\n" + LER_PEDIDO;
  private static final String GUARDAR_TRAVAR_E_LER =
      CaixaDeEntrada.GUARDAR_SE_AUSENTE + ";\n" + TRAVAR_E_LER;
  private static final String GUARDAR_TENTAR_TRAVAR_E_LER =
      CaixaDeEntrada.GUARDAR_SE_AUSENTE + ";\n" + TENTAR_TRAVAR_E_LER;

  static final String ASSENTAR_EVENTO =
      """
      UPDATE webhook_eventos
         SET aplicado_em = COALESCE(aplicado_em, now()), resultado = :resultado, motivo = :motivo
       WHERE evento_id = :eventoId
      """;

  private final JdbcClient jdbc;
  private final NamedParameterJdbcTemplate pipeline;
  private final TransactionTemplate transacao;
  private final LeitorDeEventos leitor = new LeitorDeEventos();
  private final Duration esperaPorLock;

  AplicadorDeEventos(
      JdbcClient jdbc,
      NamedParameterJdbcTemplate pipeline,
      TransactionTemplate transacao,
      AplicadorProperties propriedades) {
    this.jdbc = jdbc;
    this.pipeline = pipeline;
    this.transacao = transacao;
    this.esperaPorLock = propriedades.esperaPorLock();
  }

  /**
   * Applies the stored event in a transaction of its own.
   *
   * @return what was done; empty when the event is not stored, or already applied and the mode does
   *     not re-apply, or its order is busy and the mode does not wait
   */
  Optional<EventoAplicado> aplicar(String eventoId, ModoDeAplicacao modo) {
    return transacao.execute(status -> aplicarNaTransacao(eventoId, modo));
  }

  /**
   * The same, inside the caller's transaction, for callers that store the event first (replay) so
   * that storing and applying commit together.
   */
  Optional<EventoAplicado> aplicarNaTransacao(String eventoId, ModoDeAplicacao modo) {
    return aplicarNaTransacao(null, eventoId, modo);
  }

  /**
   * The listener's apply, inside its transaction: stores the record's event if the inbox lacks it
   * (so that a replay after a restore rebuilds the inbox; the receptor's row, when present, wins),
   * in the same round trip as the lock and the read.
   */
  Optional<EventoAplicado> guardarEAplicarNaTransacao(
      RegistroDeEvento evento, ModoDeAplicacao modo) {
    return aplicarNaTransacao(evento, evento.eventoId(), modo);
  }

  private Optional<EventoAplicado> aplicarNaTransacao(
      RegistroDeEvento guardar, String eventoId, ModoDeAplicacao modo) {
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException("applying an event needs an open transaction");
    }
    Optional<Pedido> lido = travarELer(guardar, eventoId, modo);
    if (lido.isEmpty()) {
      return Optional.empty();
    }
    Pedido pedido = lido.get();
    String pedidoId = pedido.pedidoId();
    if (pedido.evento() == null || (pedido.evento().aplicado() && !modo.reaplica())) {
      return Optional.empty();
    }
    Interpretacao interpretacao = pedido.evento().interpretacao();
    if (interpretacao instanceof Interpretacao.SemFato semFato) {
      assentar(eventoId, semFato.resultado(), semFato.motivo());
      log.info(
          "evento_id={} pedido_id={} settled as {}: {}",
          eventoId,
          pedidoId,
          semFato.resultado().codigo(),
          // The reason may quote the field it could not read: an email.
          MascaraDeEmail.mascararNoTexto(semFato.motivo()));
      return Optional.of(new EventoAplicado(eventoId, pedidoId, semFato.resultado(), List.of()));
    }
    return Optional.of(aplicarFato(pedidoId, (Fato) interpretacao, pedido));
  }

  /**
   * The first round trip: [store the event;] lock its order; read the order.
   *
   * @return empty when the event is not stored, or its order is busy and the mode does not wait
   */
  private Optional<Pedido> travarELer(
      RegistroDeEvento guardar, String eventoId, ModoDeAplicacao modo) {
    var parametros =
        new MapSqlParameterSource()
            .addValue("eventoId", eventoId)
            .addValue("milissegundos", String.valueOf(esperaPorLock.toMillis()))
            .addValue("falhaDeAplicacao", Resultado.FALHA_DE_APLICACAO.codigo());
    boolean guarda = guardar != null;
    String sql = pipelineDe(guarda, modo.esperaPeloPedido());
    if (guarda) {
      parametros
          .addValue("recursoId", guardar.recursoId())
          .addValue("tipo", guardar.tipo())
          .addValue("payload", guardar.payload())
          .addValue("recebidoEm", guardar.recebidoEm());
    }
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

  private static String pipelineDe(boolean guarda, boolean espera) {
    if (guarda) {
      return espera ? GUARDAR_TRAVAR_E_LER : GUARDAR_TENTAR_TRAVAR_E_LER;
    }
    return espera ? TRAVAR_E_LER : TENTAR_TRAVAR_E_LER;
  }

  private Pedido lerPedido(String pedidoId, String eventoId, ResultSet rs) throws SQLException {
    FatoGravado evento = null;
    List<FatoGravado> outros = new ArrayList<>();
    EstadoDoPedido atual = null;
    while (rs.next()) {
      String id = rs.getString("evento_id");
      FatoGravado fato =
          new FatoGravado(
              leitor.interpretar(id, rs.getString("tipo"), rs.getString("payload")),
              id,
              rs.getString("resultado"),
              rs.getBoolean("aplicado"));
      if (id.equals(eventoId)) {
        evento = fato;
      } else {
        outros.add(fato);
      }
      String status = rs.getString("status");
      if (status != null) {
        atual =
            new EstadoDoPedido(
                Status.doCodigo(status),
                rs.getLong("versao_origem"),
                rs.getObject("total_centavos", Long.class),
                rs.getString("cliente_email"));
      }
    }
    return new Pedido(pedidoId, evento, outros, atual);
  }

  private EventoAplicado aplicarFato(String pedidoId, Fato fato, Pedido pedido) {
    List<Fato> jaAplicados = new ArrayList<>();
    for (FatoGravado outro : pedido.outros()) {
      if (outro.interpretacao() instanceof Fato aplicado) {
        jaAplicados.add(aplicado);
      }
    }
    EstadoDoPedido atual = pedido.estado();
    Aplicacao aplicacao = Aplicacao.aplicar(atual, jaAplicados, fato);

    EstadoDoPedido novo = aplicacao.estado();
    List<String> corrigidos = new ArrayList<>();
    List<String> veredictos = new ArrayList<>();
    for (FatoGravado outro : pedido.outros()) {
      Resultado veredicto = aplicacao.veredictos().get(outro.eventoId());
      if (veredicto != null && !veredicto.codigo().equals(outro.resultado())) {
        corrigidos.add(outro.eventoId());
        veredictos.add(veredicto.codigo());
      }
    }
    List<Efeito> gravados =
        jdbc.sql(GRAVAR_APLICACAO)
            .param("pedidoId", pedidoId)
            .param("status", novo.status().codigo())
            .param("total", novo.totalCentavos())
            .param("email", novo.clienteEmail())
            .param("versao", novo.versaoOrigem())
            .param(
                "efeitos", aplicacao.efeitos().stream().map(Efeito::codigo).toArray(String[]::new))
            .param("eventoId", fato.eventoId())
            .param("resultado", aplicacao.resultado().codigo())
            .param("corrigidos", corrigidos.toArray(String[]::new))
            .param("veredictos", veredictos.toArray(String[]::new))
            .query((rs, n) -> Efeito.doCodigo(rs.getString("efeito")))
            .list();
    log.debug(
        "evento_id={} pedido_id={} {} -> {} ({}), effects {}",
        fato.eventoId(),
        pedidoId,
        atual == null ? null : atual.status().codigo(),
        novo.status().codigo(),
        aplicacao.resultado().codigo(),
        gravados);
    return new EventoAplicado(fato.eventoId(), pedidoId, aplicacao.resultado(), gravados);
  }

  private void assentar(String eventoId, Resultado resultado, String motivo) {
    jdbc.sql(ASSENTAR_EVENTO)
        .param("eventoId", eventoId)
        .param("resultado", resultado.codigo())
        .param("motivo", motivo)
        .update();
  }

  /**
   * What the apply reads of an order: its event (null when the inbox lost it), the other facts
   * applied so far, and its stored state (null before the first apply).
   */
  private record Pedido(
      String pedidoId, FatoGravado evento, List<FatoGravado> outros, EstadoDoPedido estado) {}

  private record FatoGravado(
      Interpretacao interpretacao, String eventoId, String resultado, boolean aplicado) {}
}
