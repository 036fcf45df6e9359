package pedidos.aplicador.painel;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The flow over time for the status page's charts ({@code fluxo.js}): one point per minute of the
 * window asked for, read from {@code fluxo_por_minuto} ({@link FluxoPorMinuto}) by its primary key,
 * at most {@link #MINUTOS_NO_MAXIMO} rows however large the inbox. Operators only, like every path
 * of the service port.
 */
@RestController
class FluxoDoPainel {

  static final int MINUTOS_POR_PADRAO = 180;
  static final int MINUTOS_NO_MAXIMO = 1_440;

  static final String MINUTOS =
      """
      SELECT minuto, recebidos, aplicados, publicados, aplicacao_ms::text AS aplicacao_ms,
             pendentes, pendente_idade_s
        FROM fluxo_por_minuto
       WHERE minuto >= :desde AND minuto <= :ate
       ORDER BY minuto
      """;

  private final JdbcClient jdbc;
  private final Clock relogio;

  FluxoDoPainel(ConsultasDoPainel consultas, Clock relogio) {
    this.jdbc = consultas.jdbc();
    this.relogio = relogio;
  }

  /**
   * @param desde the window's first minute
   * @param ate its last minute (the current one, unless asked for another)
   * @param limitesMs the apply-time buckets the percentiles were estimated from
   */
  record Fluxo(Instant desde, Instant ate, long[] limitesMs, List<Minuto> minutos) {}

  /**
   * One minute. {@code recebidos} is null until counted; the percentiles are null when nothing was
   * applied; {@code pendentes} and its age are null when no applier sampled the backlog then.
   *
   * @param aplicacaoP50Ms median apply time (one transaction), estimated within its bucket
   */
  record Minuto(
      Instant minuto,
      Long recebidos,
      long aplicados,
      long publicados,
      Double aplicacaoP50Ms,
      Double aplicacaoP99Ms,
      Long pendentes,
      Double pendenteIdadeS) {}

  @GetMapping("/status/fluxo")
  Fluxo fluxo(
      @RequestParam(defaultValue = "" + MINUTOS_POR_PADRAO) int minutos,
      @RequestParam(required = false) Instant ate) {
    if (minutos < 1 || minutos > MINUTOS_NO_MAXIMO) {
      throw new ResponseStatusException(
          HttpStatus.BAD_REQUEST, "minutos must be between 1 and " + MINUTOS_NO_MAXIMO);
    }
    Instant fim = (ate != null ? ate : relogio.instant()).truncatedTo(ChronoUnit.MINUTES);
    Instant inicio = fim.minus(Duration.ofMinutes(minutos - 1L));
    List<Minuto> pontos =
        jdbc.sql(MINUTOS)
            .param("desde", OffsetDateTime.ofInstant(inicio, ZoneOffset.UTC))
            .param("ate", OffsetDateTime.ofInstant(fim, ZoneOffset.UTC))
            .query(
                (rs, n) -> {
                  long[] aplicacao = longs(rs.getString("aplicacao_ms"));
                  return new Minuto(
                      rs.getObject("minuto", OffsetDateTime.class).toInstant(),
                      rs.getObject("recebidos", Long.class),
                      rs.getLong("aplicados"),
                      rs.getLong("publicados"),
                      percentil(aplicacao, 0.5),
                      percentil(aplicacao, 0.99),
                      rs.getObject("pendentes", Long.class),
                      rs.getObject("pendente_idade_s", Double.class));
                })
            .list();
    return new Fluxo(inicio, fim, FluxoPorMinuto.limites(), pontos);
  }

  /**
   * The q-quantile of a minute's apply times from its cumulative buckets, interpolated linearly
   * within the bucket it falls in (as Prometheus' histogram_quantile); the last bound when it falls
   * beyond it; null without applies.
   */
  static Double percentil(long[] acumulados, double q) {
    long[] limites = FluxoPorMinuto.LIMITES_MS;
    if (acumulados.length != limites.length + 1 || acumulados[limites.length] == 0) {
      return null;
    }
    double alvo = q * acumulados[limites.length];
    long anterior = 0;
    double limiteAnterior = 0;
    for (int i = 0; i < limites.length; i++) {
      if (acumulados[i] >= alvo && acumulados[i] > anterior) {
        return limiteAnterior
            + (limites[i] - limiteAnterior) * (alvo - anterior) / (acumulados[i] - anterior);
      }
      anterior = acumulados[i];
      limiteAnterior = limites[i];
    }
    return (double) limites[limites.length - 1];
  }

  /** A bigint[] as PostgreSQL writes it ({@code {1,2,3}}): cheaper than the driver's arrays. */
  private static long[] longs(String texto) {
    if (texto == null || texto.length() <= 2) {
      return new long[0];
    }
    String[] partes = texto.substring(1, texto.length() - 1).split(",");
    long[] valores = new long[partes.length];
    for (int i = 0; i < partes.length; i++) {
      valores[i] = Long.parseLong(partes[i]);
    }
    return valores;
  }
}
