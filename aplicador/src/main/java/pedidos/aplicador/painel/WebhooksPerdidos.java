package pedidos.aplicador.painel;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Lost webhooks on the anomalies page ({@code webhook_nao_entregue}, table {@code
 * webhooks_nao_entregues}, V15): grouped by event type, counted per hour or day over a window, the
 * share of the inbox's facts that only the store's API told, and a day's list of undelivered events
 * to send to the store, as JSON or CSV.
 *
 * <p>Every query is a range on {@code webhooks_nao_entregues_revelados} (a table as large as the
 * store's losses, not as the traffic) or on the primary key of {@code fluxo_por_minuto} (V14),
 * whose per-minute count of stored events is the share's denominator: the inbox itself is never
 * read.
 */
@RestController
class WebhooksPerdidos {

  static final String TIPO = "webhook_nao_entregue";
  static final Duration JANELA_PADRAO = Duration.ofHours(24);
  static final Duration JANELA_MAXIMA = Duration.ofDays(7);

  /** A day's list stops here (and says so): a whole day of an outage is for the CSV, in pieces. */
  static final int LIMITE_DO_DIA = 50_000;

  // Slices start at whole UTC hours or days, whatever the window's start.
  static final String GRUPOS =
      """
      SELECT tipo, count(*) FILTER (WHERE webhook_evento_id IS NULL) AS perdidos,
             count(*) FILTER (WHERE webhook_evento_id IS NOT NULL) AS atrasados,
             min(revelado_em) AS primeira, max(revelado_em) AS ultima,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM revelado_em - fato_em))
               AS atraso_mediano_s,
             -- "1 : 5" with spaces: ":5" would read as a named parameter
             (array_agg(pedido_id ORDER BY revelado_em DESC))[1 : 5] AS pedidos
        FROM webhooks_nao_entregues
       WHERE revelado_em >= :desde AND revelado_em < :ate
       GROUP BY tipo
       ORDER BY perdidos DESC, tipo
      """;

  static final String POR_FATIA =
      """
      SELECT date_bin(make_interval(secs => :passo), revelado_em, to_timestamp(0)) AS inicio,
             count(*) FILTER (WHERE webhook_evento_id IS NULL) AS perdidos,
             count(*) FILTER (WHERE webhook_evento_id IS NOT NULL) AS atrasados
        FROM webhooks_nao_entregues
       WHERE revelado_em >= :desde AND revelado_em < :ate
       GROUP BY 1
      """;

  static final String RECEBIDOS_POR_FATIA =
      """
      SELECT date_bin(make_interval(secs => :passo), minuto, to_timestamp(0)) AS inicio,
             CAST(sum(recebidos) AS bigint) AS recebidos
        FROM fluxo_por_minuto
       WHERE minuto >= :desde AND minuto < :ate
       GROUP BY 1
      """;

  static final String DO_DIA =
      """
      SELECT evento_id, pedido_id, tipo, sequencia, fato_em, revelado_em,
             CAST(extract(epoch FROM revelado_em - fato_em) AS double precision) AS atraso_s
        FROM webhooks_nao_entregues
       WHERE revelado_em >= :desde AND revelado_em < :ate AND webhook_evento_id IS NULL
       ORDER BY revelado_em, evento_id
       LIMIT :limite
      """;

  static final String ATRASADOS_DO_DIA =
      """
      SELECT count(*) FROM webhooks_nao_entregues
       WHERE revelado_em >= :desde AND revelado_em < :ate AND webhook_evento_id IS NOT NULL
      """;

  private final JdbcClient jdbc;
  private final Clock relogio;

  WebhooksPerdidos(ConsultasDoPainel consultas, Clock relogio) {
    this.jdbc = consultas.jdbc();
    this.relogio = relogio;
  }

  /**
   * @param perdidos facts no webhook delivered, to this day
   * @param atrasados facts whose webhook came after the API revealed them
   * @param atrasoMedianoS how long after the fact's own time the API revealed it, the median
   */
  record Grupo(
      String tipo,
      long perdidos,
      long atrasados,
      OffsetDateTime primeira,
      OffsetDateTime ultima,
      Double atrasoMedianoS,
      List<String> pedidos) {}

  /**
   * @param recebidos events stored in the inbox in the slice (webhooks and API facts, {@code
   *     fluxo_por_minuto}); {@code null} where not counted
   * @param parcela {@code perdidos / recebidos}: the share of the slice's facts that only the API
   *     told; {@code null} without a count
   */
  record Fatia(
      OffsetDateTime inicio, long perdidos, long atrasados, Long recebidos, Double parcela) {}

  record Perdidos(
      String anomalia,
      OffsetDateTime desde,
      OffsetDateTime ate,
      String por,
      long perdidos,
      long atrasados,
      List<Grupo> grupos,
      List<Fatia> aoLongoDoTempo) {}

  /**
   * @param atrasoS seconds between the fact's own time and when the API revealed it
   */
  record Evento(
      String eventoId,
      String pedidoId,
      String tipo,
      Long sequencia,
      OffsetDateTime fatoEm,
      OffsetDateTime reveladoEm,
      Double atrasoS) {}

  /**
   * @param completa false when the list stopped at {@link #LIMITE_DO_DIA}
   * @param atrasados the day's facts whose webhook came later, left out of the list
   */
  record Dia(
      LocalDate dia,
      String frase,
      long naoEntregues,
      long atrasados,
      boolean completa,
      List<Evento> eventos) {}

  /**
   * @param desde start of the window (ISO-8601); default: 24 hours before {@code ate}
   * @param ate end of the window, exclusive; default: now
   * @param por {@code hora} or {@code dia}; default: hours up to two days, else days
   */
  @GetMapping("/status/webhooks-nao-entregues")
  Perdidos perdidos(
      @RequestParam(name = "desde", required = false) String desde,
      @RequestParam(name = "ate", required = false) String ate,
      @RequestParam(name = "por", required = false) String por) {
    Instant fim = vazio(ate) ? relogio.instant() : instante(ate);
    Instant inicio = vazio(desde) ? fim.minus(JANELA_PADRAO) : instante(desde);
    if (!inicio.isBefore(fim)) {
      throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "desde must be before ate");
    }
    if (Duration.between(inicio, fim).compareTo(JANELA_MAXIMA) > 0) {
      throw new ResponseStatusException(
          HttpStatus.BAD_REQUEST, "the window is at most " + JANELA_MAXIMA.toDays() + " days");
    }
    String fatiarPor;
    if (vazio(por)) {
      fatiarPor = Duration.between(inicio, fim).compareTo(Duration.ofDays(2)) <= 0 ? "hora" : "dia";
    } else if (por.equals("hora") || por.equals("dia")) {
      fatiarPor = por;
    } else {
      throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "por is hora or dia");
    }
    Duration passo = fatiarPor.equals("hora") ? Duration.ofHours(1) : Duration.ofDays(1);
    OffsetDateTime de = inicio.atOffset(ZoneOffset.UTC);
    OffsetDateTime atePar = fim.atOffset(ZoneOffset.UTC);
    List<Grupo> grupos =
        jdbc.sql(GRUPOS)
            .param("desde", de)
            .param("ate", atePar)
            .query(
                (rs, n) ->
                    new Grupo(
                        rs.getString("tipo"),
                        rs.getLong("perdidos"),
                        rs.getLong("atrasados"),
                        rs.getObject("primeira", OffsetDateTime.class),
                        rs.getObject("ultima", OffsetDateTime.class),
                        rs.getObject("atraso_mediano_s", Double.class),
                        Arrays.asList((String[]) rs.getArray("pedidos").getArray())))
            .list();
    Map<Instant, long[]> contados = new HashMap<>();
    jdbc.sql(POR_FATIA)
        .param("passo", passo.toSeconds())
        .param("desde", de)
        .param("ate", atePar)
        .query(
            rs -> {
              contados.put(
                  rs.getObject("inicio", OffsetDateTime.class).toInstant(),
                  new long[] {rs.getLong("perdidos"), rs.getLong("atrasados")});
            });
    Map<Instant, Long> recebidos = new HashMap<>();
    jdbc.sql(RECEBIDOS_POR_FATIA)
        .param("passo", passo.toSeconds())
        .param("desde", de)
        .param("ate", atePar)
        .query(
            rs -> {
              recebidos.put(
                  rs.getObject("inicio", OffsetDateTime.class).toInstant(),
                  rs.getObject("recebidos", Long.class));
            });
    // Every slice of the window, empty ones too: a chart with gaps would hide the quiet hours.
    List<Fatia> fatias = new ArrayList<>();
    Instant origem = Instant.EPOCH;
    long passos = Duration.between(origem, inicio).toSeconds() / passo.toSeconds();
    for (Instant fatia = origem.plusSeconds(passos * passo.toSeconds());
        fatia.isBefore(fim);
        fatia = fatia.plus(passo)) {
      long[] c = contados.getOrDefault(fatia, new long[2]);
      Long r = recebidos.get(fatia);
      Double parcela = r == null || r == 0 ? null : (double) c[0] / r;
      fatias.add(new Fatia(fatia.atOffset(ZoneOffset.UTC), c[0], c[1], r, parcela));
    }
    long perdidos = grupos.stream().mapToLong(Grupo::perdidos).sum();
    long atrasados = grupos.stream().mapToLong(Grupo::atrasados).sum();
    return new Perdidos(TIPO, de, atePar, fatiarPor, perdidos, atrasados, grupos, fatias);
  }

  /**
   * A day's undelivered events (revealed by the API on that UTC day and never delivered since), the
   * list an operator sends to the store.
   *
   * @param dia {@code 2026-12-02}
   * @param formato {@code json} (default) or {@code csv}, a file to download
   */
  @GetMapping("/status/webhooks-nao-entregues/dia")
  ResponseEntity<?> dia(
      @RequestParam(name = "dia") String dia,
      @RequestParam(name = "formato", required = false) String formato) {
    LocalDate data;
    try {
      data = LocalDate.parse(dia);
    } catch (DateTimeParseException e) {
      throw new ResponseStatusException(
          HttpStatus.BAD_REQUEST, "dia is a date like 2026-12-02, not " + dia);
    }
    boolean csv = "csv".equals(formato);
    if (!csv && !vazio(formato) && !"json".equals(formato)) {
      throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "formato is json or csv");
    }
    OffsetDateTime de = data.atStartOfDay().atOffset(ZoneOffset.UTC);
    OffsetDateTime ate = de.plusDays(1);
    List<Evento> eventos =
        jdbc.sql(DO_DIA)
            .param("desde", de)
            .param("ate", ate)
            .param("limite", LIMITE_DO_DIA + 1)
            .query(
                (rs, n) ->
                    new Evento(
                        rs.getString("evento_id"),
                        rs.getString("pedido_id"),
                        rs.getString("tipo"),
                        rs.getObject("sequencia", Long.class),
                        rs.getObject("fato_em", OffsetDateTime.class),
                        rs.getObject("revelado_em", OffsetDateTime.class),
                        rs.getObject("atraso_s", Double.class)))
            .list();
    boolean completa = eventos.size() <= LIMITE_DO_DIA;
    if (!completa) {
      eventos = eventos.subList(0, LIMITE_DO_DIA);
    }
    long atrasados =
        jdbc.sql(ATRASADOS_DO_DIA).param("desde", de).param("ate", ate).query(Long.class).single();
    String frase =
        (completa ? "These " : "At least ")
            + eventos.size()
            + " events of "
            + data
            + " (UTC, the day the store's API revealed them) were never delivered as webhooks"
            + (atrasados == 0 ? "" : "; " + atrasados + " more arrived late");
    if (!csv) {
      return ResponseEntity.ok(new Dia(data, frase, eventos.size(), atrasados, completa, eventos));
    }
    StringBuilder texto =
        new StringBuilder("pedido_id,tipo,sequencia,fato_em,revelado_em,atraso_s,evento_id\n");
    for (Evento e : eventos) {
      texto
          .append(celula(e.pedidoId()))
          .append(',')
          .append(celula(e.tipo()))
          .append(',')
          .append(e.sequencia() == null ? "" : e.sequencia())
          .append(',')
          .append(e.fatoEm() == null ? "" : e.fatoEm())
          .append(',')
          .append(e.reveladoEm())
          .append(',')
          .append(e.atrasoS() == null ? "" : Math.round(e.atrasoS()))
          .append(',')
          .append(celula(e.eventoId()))
          .append('\n');
    }
    return ResponseEntity.ok()
        .contentType(new MediaType("text", "csv", java.nio.charset.StandardCharsets.UTF_8))
        .header(
            HttpHeaders.CONTENT_DISPOSITION,
            "attachment; filename=\"webhooks-nao-entregues-" + data + ".csv\"")
        .body(texto.toString());
  }

  /**
   * A CSV cell (RFC 4180): quoted when it holds a separator or a quote. Order ids come from the
   * store; one starting like a formula is prefixed, so a spreadsheet shows it instead of running
   * it.
   */
  static String celula(String valor) {
    if (valor == null) {
      return "";
    }
    String v = valor;
    if (!v.isEmpty() && "=+-@\t\r".indexOf(v.charAt(0)) >= 0) {
      v = "'" + v;
    }
    if (v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")) {
      return "\"" + v.replace("\"", "\"\"") + "\"";
    }
    return v;
  }

  private static boolean vazio(String texto) {
    return texto == null || texto.isBlank();
  }

  private static Instant instante(String texto) {
    try {
      return OffsetDateTime.parse(texto).toInstant();
    } catch (DateTimeParseException e) {
      try {
        return Instant.parse(texto);
      } catch (DateTimeParseException ignorada) {
        throw new ResponseStatusException(
            HttpStatus.BAD_REQUEST, "not an ISO-8601 instant: " + texto);
      }
    }
  }
}
