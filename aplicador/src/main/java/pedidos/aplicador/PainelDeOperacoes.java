package pedidos.aplicador;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * What ops look at: how the pipeline flows and what is stuck, the anomalies with their orders, and
 * where reconciliation stands. Served as JSON for the status page ({@code /status.html}) and for
 * scripts.
 */
@RestController
class PainelDeOperacoes {

  static final String CAIXA_DE_ENTRADA =
      """
      SELECT count(*) AS total,
             count(*) FILTER (WHERE aplicado_em IS NULL) AS pendentes,
             min(recebido_em) FILTER (WHERE aplicado_em IS NULL) AS pendente_mais_antigo,
             count(*) FILTER (WHERE aplicado_em > now() - interval '5 minutes') AS aplicados_5min,
             count(*) FILTER (WHERE aplicado_em IS NULL AND proxima_tentativa_em IS NOT NULL)
               AS pendentes_com_falha
        FROM webhook_eventos
      """;

  static final String OUTBOX =
      """
      SELECT count(*) AS total,
             count(*) FILTER (WHERE enviado_em IS NULL) AS pendentes,
             min(criado_em) FILTER (WHERE enviado_em IS NULL) AS pendente_mais_antigo
        FROM outbox
      """;

  static final String RESULTADOS =
      """
      SELECT coalesce(resultado, 'pendente') AS resultado, count(*) AS quantos
        FROM webhook_eventos GROUP BY 1 ORDER BY 1
      """;

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
      SELECT valor FROM cursores WHERE nome = 'pedidos_loja'
      """;

  static final String QUARENTENA =
      """
      SELECT count(*) FROM webhook_quarentena
      """;

  private final JdbcClient jdbc;
  private final Clock relogio;
  private final boolean reconciliacaoLigada;

  PainelDeOperacoes(JdbcClient jdbc, Clock relogio, AplicadorProperties propriedades) {
    this.jdbc = jdbc;
    this.relogio = relogio;
    this.reconciliacaoLigada = propriedades.reconciliacao().ligada();
  }

  record Fila(long total, long pendentes, Double idadeDoPendenteMaisAntigo) {}

  record Anomalia(
      String eventoId,
      String pedidoId,
      String tipo,
      String resultado,
      String motivo,
      OffsetDateTime recebidoEm) {}

  record Painel(
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

  @GetMapping("/status/painel")
  Painel painel() {
    Instant agora = relogio.instant();
    CaixaLida caixa =
        jdbc.sql(CAIXA_DE_ENTRADA)
            .query(
                (rs, n) ->
                    new CaixaLida(
                        new Fila(
                            rs.getLong("total"),
                            rs.getLong("pendentes"),
                            idade(
                                rs.getObject("pendente_mais_antigo", OffsetDateTime.class), agora)),
                        rs.getLong("aplicados_5min"),
                        rs.getLong("pendentes_com_falha")))
            .single();
    Fila outbox =
        jdbc.sql(OUTBOX)
            .query(
                (rs, n) ->
                    new Fila(
                        rs.getLong("total"),
                        rs.getLong("pendentes"),
                        idade(rs.getObject("pendente_mais_antigo", OffsetDateTime.class), agora)))
            .single();
    Map<String, Long> resultados = new LinkedHashMap<>();
    jdbc.sql(RESULTADOS)
        .query((rs, n) -> Map.entry(rs.getString("resultado"), rs.getLong("quantos")))
        .list()
        .forEach(entrada -> resultados.put(entrada.getKey(), entrada.getValue()));
    List<Anomalia> anomalias =
        jdbc.sql(ANOMALIAS)
            .query(
                (rs, n) ->
                    new Anomalia(
                        rs.getString("evento_id"),
                        rs.getString("recurso_id"),
                        rs.getString("tipo"),
                        rs.getString("resultado"),
                        rs.getString("motivo"),
                        rs.getObject("recebido_em", OffsetDateTime.class)))
            .list();
    OffsetDateTime cursor = jdbc.sql(CURSOR).query(OffsetDateTime.class).optional().orElse(null);
    return new Painel(
        agora,
        caixa.fila(),
        caixa.aplicadosNosUltimos5Minutos(),
        caixa.pendentesComFalha(),
        outbox,
        resultados,
        anomalias,
        jdbc.sql(QUARENTENA).query(Long.class).single(),
        reconciliacaoLigada,
        cursor,
        idade(cursor, agora));
  }

  private record CaixaLida(Fila fila, long aplicadosNosUltimos5Minutos, long pendentesComFalha) {}

  private static Double idade(OffsetDateTime desde, Instant agora) {
    return desde == null ? null : Duration.between(desde.toInstant(), agora).toMillis() / 1000.0;
  }
}
