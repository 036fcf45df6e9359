package pedidos.aplicador.painel;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.dominio.Resultado;

/**
 * Keeps the flow per minute ({@code fluxo_por_minuto}, migration V14) that the status page charts,
 * and the backlog gauges Prometheus alerts on. Every {@link #INTERVALO}, on every instance:
 *
 * <ul>
 *   <li>adds what this instance applied since the last round, and how long each apply took, read
 *       from its own meters ({@code aplicador.eventos}, {@code aplicador.aplicacao}): nothing is
 *       written per event and the apply path does not know this exists;
 *   <li>samples the backlog: pending rows (counted up to {@link #PENDENTES_CONTADOS_ATE}) and the
 *       oldest one's age, both from the partial index of pending rows;
 *   <li>if no other instance is doing it, counts the events received in the minutes since the last
 *       count, each minute a range on the BRIN index of {@code recebido_em};
 *   <li>drops minutes older than {@link #GUARDA}.
 * </ul>
 *
 * A crash loses at most one round of this instance's counts: it is a chart, not a ledger.
 */
@Component
class FluxoPorMinuto implements SchedulingConfigurer {

  static final Duration INTERVALO = Duration.ofSeconds(10);

  /** How long minutes are kept: the page shows any window within it. */
  static final Duration GUARDA = Duration.ofDays(7);

  /** Pending rows are counted up to this many; past it the chart shows this many. */
  static final int PENDENTES_CONTADOS_ATE = 100_000;

  /**
   * Upper bounds, in milliseconds, of the apply-time buckets of {@code aplicacao_ms}; its last
   * element counts every apply of the minute.
   */
  static final long[] LIMITES_MS = {
    1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000
  };

  /** Any other session of the applier holding it is counting the received events this round. */
  static final long TRAVA_DOS_RECEBIDOS = 0x666c7578_6f000001L;

  static final String SOMAR_APLICADOS =
      """
      INSERT INTO fluxo_por_minuto (minuto, aplicados, resultados, aplicacao_ms)
      VALUES (:minuto, :aplicados, CAST(:resultados AS jsonb), CAST(:aplicacao AS bigint[]))
      ON CONFLICT (minuto) DO UPDATE
        SET aplicados = fluxo_por_minuto.aplicados + excluded.aplicados,
            resultados = (
              SELECT coalesce(jsonb_object_agg(r.resultado, r.quantos), '{}')
                FROM (SELECT t.resultado, sum(t.quantos::bigint) AS quantos
                        FROM (SELECT * FROM jsonb_each_text(fluxo_por_minuto.resultados)
                              UNION ALL
                              SELECT * FROM jsonb_each_text(excluded.resultados))
                             AS t (resultado, quantos)
                       GROUP BY t.resultado) AS r),
            aplicacao_ms = CASE
              WHEN cardinality(fluxo_por_minuto.aplicacao_ms) = 0 THEN excluded.aplicacao_ms
              ELSE ARRAY(SELECT coalesce(a, 0) + coalesce(b, 0)
                           FROM unnest(fluxo_por_minuto.aplicacao_ms, excluded.aplicacao_ms)
                                WITH ORDINALITY AS t (a, b, i)
                          ORDER BY i)
            END
      """;

  /** Both read the partial index of pending rows (V1): as large as the backlog, never the inbox. */
  static final String AMOSTRAR_PENDENTES =
      """
      INSERT INTO fluxo_por_minuto (minuto, pendentes, pendente_idade_s)
      SELECT :minuto, p.pendentes,
             coalesce(extract(epoch FROM (CAST(:agora AS timestamptz) - p.mais_antigo)), 0)
        FROM (SELECT (SELECT count(*)
                        FROM (SELECT 1 FROM webhook_eventos
                               WHERE aplicado_em IS NULL LIMIT :limite) AS contados) AS pendentes,
                     (SELECT min(recebido_em) FROM webhook_eventos
                       WHERE aplicado_em IS NULL) AS mais_antigo) AS p
      ON CONFLICT (minuto) DO UPDATE
        SET pendentes = excluded.pendentes, pendente_idade_s = excluded.pendente_idade_s
      RETURNING pendentes, pendente_idade_s
      """;

  /**
   * The minutes from two before the last one counted (a late commit lands in a minute already
   * counted once) up to the current one, never before the window kept. Each minute is one range on
   * the BRIN index of recebido_em (V11). Skipped while another session holds the lock.
   */
  static final String CONTAR_RECEBIDOS =
      """
      WITH vez AS (SELECT pg_try_advisory_xact_lock(:trava) AS nossa),
           ultimo AS (SELECT max(minuto) AS minuto FROM fluxo_por_minuto
                       WHERE recebidos IS NOT NULL AND minuto >= CAST(:guarda AS timestamptz)
                         AND minuto <= CAST(:minuto AS timestamptz))
      INSERT INTO fluxo_por_minuto (minuto, recebidos)
      SELECT m.minuto,
             (SELECT count(*) FROM webhook_eventos e
               WHERE e.recebido_em >= m.minuto AND e.recebido_em < m.minuto + interval '1 minute')
        FROM vez, ultimo,
             generate_series(
               coalesce(ultimo.minuto - interval '2 minutes', CAST(:inicio AS timestamptz)),
               CAST(:minuto AS timestamptz), interval '1 minute') AS m (minuto)
       WHERE vez.nossa
      ON CONFLICT (minuto) DO UPDATE SET recebidos = excluded.recebidos
      """;

  static final String ESQUECER =
      """
      DELETE FROM fluxo_por_minuto WHERE minuto < :limite
      """;

  private static final Logger log = LoggerFactory.getLogger(FluxoPorMinuto.class);

  private final JdbcClient jdbc;
  private final MeterRegistry registro;
  private final Clock relogio;
  private final boolean ligado;
  private final Duration janelaInicial;
  private final AtomicLong pendentes = new AtomicLong(-1);
  private final AtomicLong idadeDoPendenteMs = new AtomicLong(-1);
  private Map<String, Long> aplicadosSomados = Map.of();
  private long[] aplicacaoSomada = new long[LIMITES_MS.length + 1];

  FluxoPorMinuto(
      ConsultasDoPainel consultas,
      MeterRegistry registro,
      Clock relogio,
      AplicadorProperties propriedades) {
    this.jdbc = consultas.jdbc();
    this.registro = registro;
    this.relogio = relogio;
    this.ligado = propriedades.tarefasPeriodicas();
    this.janelaInicial = Duration.ofMinutes(FluxoDoPainel.MINUTOS_POR_PADRAO);
    Gauge.builder("aplicador.caixa.pendentes", pendentes, FluxoPorMinuto::conhecido)
        .description(
            "Inbox rows not yet applied (counted up to " + PENDENTES_CONTADOS_ATE + "), sampled")
        .register(registro);
    Gauge.builder(
            "aplicador.caixa.pendente.idade",
            idadeDoPendenteMs,
            ms -> ms.get() < 0 ? Double.NaN : ms.get() / 1000.0)
        .description("Age of the oldest inbox row not yet applied (0 when none), sampled")
        .baseUnit("seconds")
        .register(registro);
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar agenda) {
    if (ligado) {
      agenda.addFixedDelayTask(this::executar, INTERVALO);
    }
  }

  void executar() {
    try {
      rodada();
    } catch (DataAccessException e) {
      // The database is down or slow: the next round adds what this one could not.
      log.warn("Flow per minute not updated: {}", e.toString());
    }
  }

  /** One round; the counts it could not write are added by the next one. */
  public synchronized void rodada() {
    Instant agora = relogio.instant();
    OffsetDateTime minuto =
        OffsetDateTime.ofInstant(agora.truncatedTo(ChronoUnit.MINUTES), ZoneOffset.UTC);
    somarAplicados(minuto);
    jdbc.sql(AMOSTRAR_PENDENTES)
        .param("minuto", minuto)
        .param("agora", OffsetDateTime.ofInstant(agora, ZoneOffset.UTC))
        .param("limite", PENDENTES_CONTADOS_ATE)
        .query(
            (rs, n) -> {
              pendentes.set(rs.getLong("pendentes"));
              idadeDoPendenteMs.set(
                  Math.max(0, Math.round(rs.getDouble("pendente_idade_s") * 1000)));
              return null;
            })
        .list();
    jdbc.sql(CONTAR_RECEBIDOS)
        .param("trava", TRAVA_DOS_RECEBIDOS)
        .param("minuto", minuto)
        .param("inicio", minuto.minus(janelaInicial))
        .param("guarda", minuto.minus(GUARDA))
        .update();
    jdbc.sql(ESQUECER).param("limite", minuto.minus(GUARDA)).update();
  }

  private void somarAplicados(OffsetDateTime minuto) {
    Map<String, Long> aplicados = new TreeMap<>();
    for (Counter contador : registro.find("aplicador.eventos").counters()) {
      aplicados.merge(contador.getId().getTag("resultado"), (long) contador.count(), Long::sum);
    }
    // Rows settled as a failure are not applies, so they have their own counter; the page's
    // results show them beside the verdicts.
    for (Counter contador : registro.find("aplicador.falhas_de_aplicacao").counters()) {
      aplicados.merge(Resultado.FALHA_DE_APLICACAO.codigo(), (long) contador.count(), Long::sum);
    }
    long[] aplicacao = aplicacaoAcumulada();
    Map<String, Long> novos = new TreeMap<>();
    aplicados.forEach(
        (resultado, quantos) ->
            novos.put(resultado, quantos - aplicadosSomados.getOrDefault(resultado, 0L)));
    long[] novasAplicacoes = new long[aplicacao.length];
    boolean reiniciado = novos.values().stream().anyMatch(n -> n < 0);
    for (int i = 0; i < aplicacao.length; i++) {
      novasAplicacoes[i] = aplicacao[i] - aplicacaoSomada[i];
      reiniciado |= novasAplicacoes[i] < 0;
    }
    if (reiniciado) {
      // Meters removed and registered again: what they hold now is all new.
      novos.putAll(aplicados);
      novasAplicacoes = aplicacao;
    }
    novos.values().removeIf(n -> n == 0);
    long total = novos.values().stream().mapToLong(Long::longValue).sum();
    if (total == 0 && novasAplicacoes[novasAplicacoes.length - 1] == 0) {
      return;
    }
    jdbc.sql(SOMAR_APLICADOS)
        .param("minuto", minuto)
        .param("aplicados", total)
        .param("resultados", emJson(novos))
        .param("aplicacao", emTexto(novasAplicacoes))
        .update();
    aplicadosSomados = aplicados;
    aplicacaoSomada = aplicacao;
  }

  /** Result codes are lowercase words (pedidos.dominio.Resultado): nothing to escape. */
  private static String emJson(Map<String, Long> porResultado) {
    return porResultado.entrySet().stream()
        .map(e -> "\"" + e.getKey() + "\":" + e.getValue())
        .collect(Collectors.joining(",", "{", "}"));
  }

  /**
   * Applies so far by time taken, cumulative at each bound of {@link #LIMITES_MS}, then all of
   * them: from the apply timer's histogram (every path, every result), whose buckets are cumulative
   * counts since the start, as Prometheus reads them.
   */
  private long[] aplicacaoAcumulada() {
    long[] acumulada = new long[LIMITES_MS.length + 1];
    for (Timer timer : registro.find("aplicador.aplicacao").timers()) {
      HistogramSnapshot foto = timer.takeSnapshot();
      CountAtBucket[] baldes = foto.histogramCounts();
      for (int i = 0; i < LIMITES_MS.length; i++) {
        double ate = 0;
        for (CountAtBucket balde : baldes) {
          if (balde.bucket(TimeUnit.MILLISECONDS) <= LIMITES_MS[i] + 1e-9) {
            ate = Math.max(ate, balde.count());
          }
        }
        acumulada[i] += (long) ate;
      }
      acumulada[LIMITES_MS.length] += foto.count();
    }
    return acumulada;
  }

  private static String emTexto(long[] valores) {
    return LongStream.of(valores)
        .mapToObj(Long::toString)
        .collect(Collectors.joining(",", "{", "}"));
  }

  private static double conhecido(AtomicLong valor) {
    return valor.get() < 0 ? Double.NaN : valor.get();
  }

  static long[] limites() {
    return Arrays.copyOf(LIMITES_MS, LIMITES_MS.length);
  }
}
