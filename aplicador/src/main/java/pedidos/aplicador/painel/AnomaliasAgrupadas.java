package pedidos.aplicador.painel;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import pedidos.contrato.MascaraDeEmail;
import pedidos.dominio.FrasesDosVeredictos;

/**
 * The anomalies of a time window ({@code /anomalias.html}), grouped by kind (the verdict), event
 * type and reason, with counts over time, each group with its latest orders, and the latest
 * anomalous events themselves, each linking to its order's explanation.
 *
 * <p>Every query reads the partial index {@code webhook_eventos_anomalias} (V11), which holds only
 * anomalous rows, within a window of at most {@link #JANELA_MAXIMA}: the cost is the window's
 * anomalies, never the inbox.
 */
@RestController
class AnomaliasAgrupadas {

  static final Duration JANELA_PADRAO = Duration.ofHours(24);
  static final Duration JANELA_MAXIMA = Duration.ofDays(7);

  /** The kinds the partial index holds; the queries repeat its predicate so the planner uses it. */
  static final List<String> TIPOS =
      List.of("regressao_de_terminal", "fato_invalido", "falha_de_aplicacao");

  static final String GRUPOS =
      """
      SELECT resultado, tipo, motivo, count(*) AS quantos,
             min(recebido_em) AS primeira, max(recebido_em) AS ultima,
             -- "1 : 5" with spaces: ":5" would read as a named parameter
             (array_agg(recurso_id ORDER BY recebido_em DESC))[1 : 5] AS pedidos
        FROM webhook_eventos
       WHERE resultado IN ('regressao_de_terminal', 'fato_invalido', 'falha_de_aplicacao')
         AND recebido_em >= :desde AND recebido_em < :ate
         AND resultado = ANY(CAST(:tipos AS text[]))
       GROUP BY resultado, tipo, motivo
       ORDER BY quantos DESC, ultima DESC
       LIMIT 100
      """;

  /** Counts by kind in 24 equal slices of the window. */
  static final String AO_LONGO_DO_TEMPO =
      """
      SELECT date_bin(make_interval(secs => :passo), recebido_em, :desde) AS inicio, resultado,
             count(*) AS quantos
        FROM webhook_eventos
       WHERE resultado IN ('regressao_de_terminal', 'fato_invalido', 'falha_de_aplicacao')
         AND recebido_em >= :desde AND recebido_em < :ate
         AND resultado = ANY(CAST(:tipos AS text[]))
       GROUP BY 1, 2
       ORDER BY 1, 2
      """;

  static final String ULTIMAS =
      """
      SELECT evento_id, recurso_id, tipo, resultado, motivo, recebido_em
        FROM webhook_eventos
       WHERE resultado IN ('regressao_de_terminal', 'fato_invalido', 'falha_de_aplicacao')
         AND recebido_em >= :desde AND recebido_em < :ate
         AND resultado = ANY(CAST(:tipos AS text[]))
       ORDER BY recebido_em DESC
       LIMIT 100
      """;

  private final JdbcClient jdbc;
  private final Clock relogio;

  AnomaliasAgrupadas(ConsultasDoPainel consultas, Clock relogio) {
    this.jdbc = consultas.jdbc();
    this.relogio = relogio;
  }

  /**
   * @param frase what the kind means, in words
   * @param motivo the stored reason, emails masked; for a terminal regression (which has none) the
   *     event type says what tried to leave the terminal status
   * @param pedidos the group's latest orders, up to five
   */
  record Grupo(
      String resultado,
      String frase,
      String tipo,
      String motivo,
      long quantos,
      OffsetDateTime primeira,
      OffsetDateTime ultima,
      List<String> pedidos) {}

  record Fatia(OffsetDateTime inicio, String resultado, long quantos) {}

  record Anomalia(
      String eventoId,
      String pedidoId,
      String tipo,
      String resultado,
      String frase,
      String motivo,
      OffsetDateTime recebidoEm) {}

  /**
   * @param passoEmSegundos the length of each slice of {@code aoLongoDoTempo}
   */
  record Anomalias(
      OffsetDateTime desde,
      OffsetDateTime ate,
      List<String> tipos,
      long passoEmSegundos,
      List<Grupo> grupos,
      List<Fatia> aoLongoDoTempo,
      List<Anomalia> ultimas) {}

  /**
   * @param desde start of the window (ISO-8601); default: 24 hours before {@code ate}
   * @param ate end of the window, exclusive; default: now
   * @param tipo one kind, or all when absent
   */
  @GetMapping("/status/anomalias")
  Anomalias anomalias(
      @RequestParam(name = "desde", required = false) String desde,
      @RequestParam(name = "ate", required = false) String ate,
      @RequestParam(name = "tipo", required = false) String tipo) {
    Instant fim = ate == null || ate.isBlank() ? relogio.instant() : instante(ate);
    Instant inicio = desde == null || desde.isBlank() ? fim.minus(JANELA_PADRAO) : instante(desde);
    if (!inicio.isBefore(fim)) {
      throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "desde must be before ate");
    }
    if (Duration.between(inicio, fim).compareTo(JANELA_MAXIMA) > 0) {
      throw new ResponseStatusException(
          HttpStatus.BAD_REQUEST, "the window is at most " + JANELA_MAXIMA.toDays() + " days");
    }
    List<String> tipos;
    if (tipo == null || tipo.isBlank()) {
      tipos = TIPOS;
    } else if (TIPOS.contains(tipo)) {
      tipos = List.of(tipo);
    } else {
      throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "tipo is one of " + TIPOS);
    }
    long passo = Math.max(60, Duration.between(inicio, fim).toSeconds() / 24);
    OffsetDateTime de = inicio.atOffset(ZoneOffset.UTC);
    OffsetDateTime ateParam = fim.atOffset(ZoneOffset.UTC);
    String[] tiposParam = tipos.toArray(String[]::new);
    List<Grupo> grupos =
        jdbc.sql(GRUPOS)
            .param("desde", de)
            .param("ate", ateParam)
            .param("tipos", tiposParam)
            .query(
                (rs, n) ->
                    new Grupo(
                        rs.getString("resultado"),
                        FrasesDosVeredictos.doCodigo(rs.getString("resultado")),
                        rs.getString("tipo"),
                        MascaraDeEmail.mascararNoTexto(rs.getString("motivo")),
                        rs.getLong("quantos"),
                        rs.getObject("primeira", OffsetDateTime.class),
                        rs.getObject("ultima", OffsetDateTime.class),
                        Arrays.asList((String[]) rs.getArray("pedidos").getArray())))
            .list();
    List<Fatia> fatias =
        jdbc.sql(AO_LONGO_DO_TEMPO)
            .param("passo", passo)
            .param("desde", de)
            .param("ate", ateParam)
            .param("tipos", tiposParam)
            .query(
                (rs, n) ->
                    new Fatia(
                        rs.getObject("inicio", OffsetDateTime.class),
                        rs.getString("resultado"),
                        rs.getLong("quantos")))
            .list();
    List<Anomalia> ultimas =
        jdbc.sql(ULTIMAS)
            .param("desde", de)
            .param("ate", ateParam)
            .param("tipos", tiposParam)
            .query(
                (rs, n) ->
                    new Anomalia(
                        rs.getString("evento_id"),
                        rs.getString("recurso_id"),
                        rs.getString("tipo"),
                        rs.getString("resultado"),
                        FrasesDosVeredictos.doCodigo(rs.getString("resultado")),
                        MascaraDeEmail.mascararNoTexto(rs.getString("motivo")),
                        rs.getObject("recebido_em", OffsetDateTime.class)))
            .list();
    return new Anomalias(de, ateParam, tipos, passo, grupos, fatias, ultimas);
  }

  private static Instant instante(String texto) {
    try {
      return OffsetDateTime.parse(texto).toInstant();
    } catch (java.time.format.DateTimeParseException e) {
      try {
        return Instant.parse(texto);
      } catch (java.time.format.DateTimeParseException ignorada) {
        throw new ResponseStatusException(
            HttpStatus.BAD_REQUEST, "not an ISO-8601 instant: " + texto);
      }
    }
  }
}
