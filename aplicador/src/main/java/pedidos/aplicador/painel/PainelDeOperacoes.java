package pedidos.aplicador.painel;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.reconciliacao.Reconciliacao;
import pedidos.contrato.MascaraDeEmail;

/**
 * What ops look at: how the pipeline flows and what is stuck, the anomalies with their orders, and
 * where reconciliation stands. Served as JSON for the status page ({@code /status.html}) and for
 * scripts, to operators only ({@link SegurancaDasOperacoes}).
 *
 * <p>It must never slow applies down: its queries run on connections of their own ({@link
 * ConsultasDoPainel}), one round serves every request for {@code aplicador.painel.cache}, and no
 * query reads the whole inbox. Counts that would (the totals) are exact up to {@link
 * #CONTAGEM_EXATA_ATE} rows and PostgreSQL's estimate beyond; the rest read partial indexes
 * (migration V11) or the flow per minute (V14, {@link FluxoPorMinuto}).
 */
@RestController
class PainelDeOperacoes {

  /** Totals are counted exactly up to this many rows; past it, the planner's estimate. */
  static final int CONTAGEM_EXATA_ATE = 10_000;

  /** Pending rows: the partial indexes on pending rows (V1, V7), as large as the backlog. */
  static final String CAIXA_DE_ENTRADA =
      """
      SELECT count(*) AS pendentes,
             min(recebido_em) AS pendente_mais_antigo,
             count(*) FILTER (WHERE proxima_tentativa_em IS NOT NULL) AS pendentes_com_falha
        FROM webhook_eventos
       WHERE aplicado_em IS NULL
      """;

  /**
   * Applied in the last 5 minutes (the current minute and the 4 before it), by any path, from the
   * flow per minute ({@link FluxoPorMinuto}, at most 10 s behind): a few rows by primary key.
   */
  static final String APLICADOS_RECENTES =
      """
      SELECT coalesce(sum(aplicados), 0)
        FROM fluxo_por_minuto
       WHERE minuto >= date_trunc('minute', now()) - interval '4 minutes'
      """;

  /** A table's rows counted up to a bound, with the planner's estimate for when it is larger. */
  static final String TOTAL =
      """
      SELECT (SELECT count(*) FROM (SELECT 1 FROM %1$s LIMIT %2$d) AS amostra) AS contados,
             (SELECT reltuples::bigint FROM pg_class WHERE oid = '%1$s'::regclass) AS estimados
      """;

  static final String OUTBOX =
      """
      SELECT count(*) AS pendentes, min(criado_em) AS pendente_mais_antigo
        FROM outbox
       WHERE enviado_em IS NULL
      """;

  /**
   * Results of the events applied in the last 24 hours, from the flow per minute (1,440 rows by
   * primary key): counting them in the inbox read a day of rows at every refresh, about a second at
   * 5 million rows (docs/BENCHMARKS.md). The pending ones are the inbox's pending count.
   */
  static final String RESULTADOS =
      """
      SELECT r.resultado, sum(r.quantos::bigint) AS quantos
        FROM fluxo_por_minuto f, jsonb_each_text(f.resultados) AS r (resultado, quantos)
       WHERE f.minuto > now() - interval '24 hours'
       GROUP BY 1 ORDER BY 1
      """;

  /** The partial index webhook_eventos_anomalias (V11) holds exactly these rows. */
  static final String ANOMALIAS =
      """
      SELECT evento_id, recurso_id, tipo, resultado, motivo, recebido_em
        FROM webhook_eventos
       WHERE resultado IN ('regressao_de_terminal', 'fato_invalido', 'falha_de_aplicacao')
       ORDER BY recebido_em DESC
       LIMIT 50
      """;

  static final String CURSOR =
      """
      SELECT valor FROM cursores WHERE nome = :nome
      """;

  private final JdbcClient jdbc;
  private final Clock relogio;
  private final MetricasDoAplicador metricas;
  private final boolean reconciliacaoLigada;
  private final long cacheNanos;
  private final ReentrantLock leitura = new ReentrantLock();
  private volatile Lido ultimo;

  PainelDeOperacoes(
      ConsultasDoPainel consultas,
      Clock relogio,
      MetricasDoAplicador metricas,
      AplicadorProperties propriedades) {
    this.jdbc = consultas.jdbc();
    this.relogio = relogio;
    this.metricas = metricas;
    this.reconciliacaoLigada = propriedades.reconciliacao().ligada();
    this.cacheNanos = propriedades.painel().cache().toNanos();
  }

  /**
   * @param total exact when {@code totalEstimado} is false; else PostgreSQL's estimate (at least
   *     {@link #CONTAGEM_EXATA_ATE})
   */
  record Fila(
      long total, boolean totalEstimado, long pendentes, Double idadeDoPendenteMaisAntigo) {}

  /** An anomaly; its reason has customer emails masked ({@link MascaraDeEmail}). */
  record Anomalia(
      String eventoId,
      String pedidoId,
      String tipo,
      String resultado,
      String motivo,
      OffsetDateTime recebidoEm) {}

  /**
   * @param agora when this round of queries ran: page loads within the cache period share it
   * @param resultados by result, of the events applied in the last 24 hours; {@code pendente}: the
   *     inbox's pending rows
   */
  public record Painel(
      Instant agora,
      Fila caixaDeEntrada,
      long aplicadosNosUltimos5Minutos,
      long pendentesComFalha,
      Fila outbox,
      Map<String, Long> resultados,
      List<Anomalia> anomalias,
      long quarentena,
      boolean reconciliacaoLigada,
      OffsetDateTime cursorDaReconciliacao,
      Double idadeDoCursor) {}

  private record Lido(Painel painel, long lidoEmNanos) {}

  @GetMapping("/status/painel")
  public Painel painel() {
    Lido visto = ultimo;
    if (fresco(visto)) {
      return visto.painel();
    }
    // One reader at a time: a burst of page loads waits for the round already running and shares
    // its answer instead of each starting its own.
    leitura.lock();
    try {
      visto = ultimo;
      if (fresco(visto)) {
        return visto.painel();
      }
      Painel painel = ler();
      // System.nanoTime, not the clock: only elapsed time matters, and it must never go back.
      ultimo = new Lido(painel, System.nanoTime());
      return painel;
    } finally {
      leitura.unlock();
    }
  }

  /** Drops the cached round, so that the next request queries again. */
  void esquecer() {
    ultimo = null;
  }

  private boolean fresco(Lido lido) {
    return lido != null && System.nanoTime() - lido.lidoEmNanos() < cacheNanos;
  }

  private Painel ler() {
    metricas.rodadaDoPainel();
    Instant agora = relogio.instant();
    CaixaLida caixa =
        jdbc.sql(CAIXA_DE_ENTRADA)
            .query(
                (rs, n) ->
                    new CaixaLida(
                        rs.getLong("pendentes"),
                        idade(rs.getObject("pendente_mais_antigo", OffsetDateTime.class), agora),
                        rs.getLong("pendentes_com_falha")))
            .single();
    Total totalDaCaixa = total("webhook_eventos");
    Total totalDoOutbox = total("outbox");
    Fila outbox =
        jdbc.sql(OUTBOX)
            .query(
                (rs, n) ->
                    new Fila(
                        totalDoOutbox.valor(),
                        totalDoOutbox.estimado(),
                        rs.getLong("pendentes"),
                        idade(rs.getObject("pendente_mais_antigo", OffsetDateTime.class), agora)))
            .single();
    Map<String, Long> resultados = new LinkedHashMap<>();
    jdbc.sql(RESULTADOS)
        .query((rs, n) -> Map.entry(rs.getString("resultado"), rs.getLong("quantos")))
        .list()
        .forEach(entrada -> resultados.put(entrada.getKey(), entrada.getValue()));
    resultados.put("pendente", caixa.pendentes());
    List<Anomalia> anomalias =
        jdbc.sql(ANOMALIAS)
            .query(
                (rs, n) ->
                    new Anomalia(
                        rs.getString("evento_id"),
                        rs.getString("recurso_id"),
                        rs.getString("tipo"),
                        rs.getString("resultado"),
                        // A reason may quote the payload it could not read: the customer's email.
                        MascaraDeEmail.mascararNoTexto(rs.getString("motivo")),
                        rs.getObject("recebido_em", OffsetDateTime.class)))
            .list();
    OffsetDateTime cursor =
        jdbc.sql(CURSOR)
            .param("nome", Reconciliacao.CURSOR)
            .query(OffsetDateTime.class)
            .optional()
            .orElse(null);
    return new Painel(
        agora,
        new Fila(
            totalDaCaixa.valor(),
            totalDaCaixa.estimado(),
            caixa.pendentes(),
            caixa.idadeDoPendenteMaisAntigo()),
        jdbc.sql(APLICADOS_RECENTES).query(Long.class).single(),
        caixa.pendentesComFalha(),
        outbox,
        resultados,
        anomalias,
        total("webhook_quarentena").valor(),
        reconciliacaoLigada,
        cursor,
        idade(cursor, agora));
  }

  private Total total(String tabela) {
    return jdbc.sql(TOTAL.formatted(tabela, CONTAGEM_EXATA_ATE + 1))
        .query(
            (rs, n) -> {
              long contados = rs.getLong("contados");
              if (contados <= CONTAGEM_EXATA_ATE) {
                return new Total(contados, false);
              }
              // Never below what was counted: a table never analysed estimates -1 or 0.
              return new Total(Math.max(rs.getLong("estimados"), contados), true);
            })
        .single();
  }

  private record Total(long valor, boolean estimado) {}

  private record CaixaLida(
      long pendentes, Double idadeDoPendenteMaisAntigo, long pendentesComFalha) {}

  private static Double idade(OffsetDateTime desde, Instant agora) {
    return desde == null ? null : Duration.between(desde.toInstant(), agora).toMillis() / 1000.0;
  }
}
