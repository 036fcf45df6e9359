package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.aplicador.TopicosDeTeste;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.testes.InfraDeTeste;

/**
 * Benchmark, not a test (its name keeps it out of {@code mvn verify}; bench/painel.sh runs it): the
 * status page's requests against an inbox of {@code painel.bench.linhas} rows (5,000,000 by
 * default), over HTTP with the operator's login, each round of queries run afresh (no cache).
 * Writes target/painel-em-escala.md and fails if a request's p95 reaches 200 ms or a panel query
 * reads webhook_eventos or outbox with an unbounded Seq Scan.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "aplicador.tarefas-periodicas=false",
      "management.server.port=0",
      "aplicador.ops.usuario=" + PainelEmEscalaBench.USUARIO,
      "aplicador.ops.senha=" + PainelEmEscalaBench.SENHA,
      // Every request runs the queries: what is timed is the database's work, not the cache.
      "aplicador.painel.cache=0s"
    })
class PainelEmEscalaBench {

  static final String USUARIO = "operador";
  static final String SENHA = "senha-da-bancada-bem-longa";

  private static final int LINHAS = Integer.getInteger("painel.bench.linhas", 5_000_000);
  private static final int DIAS = Integer.getInteger("painel.bench.dias", 30);
  private static final int PENDENTES = Integer.getInteger("painel.bench.pendentes", 20_000);
  private static final int AQUECIMENTO = 5;
  private static final int MEDIDAS = Integer.getInteger("painel.bench.medidas", 40);
  private static final Duration LIMITE = Duration.ofMillis(200);

  @DynamicPropertySource
  static void infra(DynamicPropertyRegistry registro) {
    InfraDeTeste.registrar(registro, PapelNoBanco.APLICADOR);
    TopicosDeTeste.comoORelay();
  }

  @LocalServerPort int porta;
  @Autowired FluxoPorMinuto fluxo;

  private final JdbcClient dono =
      JdbcClient.create(InfraLocal.compartilhada().postgres().dataSource());
  private final StringBuilder relatorio = new StringBuilder();

  @Test
  void cadaPedidoDoPainelEmMenosDe200msComOInboxGrande() throws Exception {
    long inicio = System.nanoTime();
    preencher();
    linha(
        "Filled %,d inbox rows (%,d pending), %,d outbox rows, 7 days of fluxo_por_minuto in %.0f s",
        contar("webhook_eventos"), PENDENTES, contar("outbox"), segundos(inicio));
    linha(
        "Sizes: webhook_eventos %s, outbox %s (heap + indexes + TOAST)",
        tamanho("webhook_eventos"), tamanho("outbox"));
    // One round of the aplicador's job as it runs every 10 s, timed apart (it is not a request).
    long rodada = System.nanoTime();
    fluxo.rodada();
    linha(
        "One round of FluxoPorMinuto (sample the backlog, count received minutes): %.0f ms",
        (System.nanoTime() - rodada) / 1e6);

    Map<String, String> pedidos = new LinkedHashMap<>();
    pedidos.put("/status/painel", "totals, backlog, results, anomalies, cursor (one round)");
    pedidos.put("/status/fluxo", "charts, last 3 hours (default)");
    pedidos.put("/status/fluxo?minutos=1440", "charts, last 24 hours");
    // The order's page and the search, for an order and an event in the middle of the inbox, and
    // the anomalies over the default day and the widest window the page allows.
    String umPedido = "ord_" + md5(Integer.toString(LINHAS / 8)).substring(0, 16);
    String umEvento = "evt_" + md5(Integer.toString(LINHAS / 2)).substring(0, 20);
    pedidos.put("/status/pedido?id=" + umPedido, "explain an order (4 facts, 1 effect)");
    pedidos.put("/status/busca?q=" + umPedido, "search by order id");
    pedidos.put("/status/busca?q=" + umEvento, "search by event id");
    pedidos.put("/status/busca?q=cliente7@example.com", "search by email");
    pedidos.put("/status/anomalias", "anomalies grouped, last 24 hours");
    pedidos.put(
        "/status/anomalias?desde=" + Instant.now().minus(Duration.ofDays(7).minusHours(1)),
        "anomalies grouped, last 7 days less an hour (the page allows 7)");
    pedidos.put("/status/retidos", "quarantine and dead letters");
    pedidos.put("/status.html", "the page");
    pedidos.put("/fluxo.js", "the charts' script");
    linha("");
    linha("| request | what | p50 ms | p95 ms | max ms |");
    linha("| --- | --- | ---: | ---: | ---: |");
    List<String> lentos = new ArrayList<>();
    for (var pedido : pedidos.entrySet()) {
      double[] ms = medir(pedido.getKey());
      linha(
          "| `%s` | %s | %.1f | %.1f | %.1f |",
          pedido.getKey(),
          pedido.getValue(),
          percentil(ms, 0.5),
          percentil(ms, 0.95),
          ms[ms.length - 1]);
      if (percentil(ms, 0.95) >= LIMITE.toMillis()) {
        lentos.add(pedido.getKey());
      }
    }
    linha("");
    linha(
        "Load average at the end: %.2f (2 cores, shared with other work)",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    List<String> planos =
        PlanosDoPainel.explicar(InfraLocal.compartilhada().postgres().dataSource(), true);
    linha("");
    linha("Plans at this size (EXPLAIN ANALYZE of each panel query, scans of the large tables):");
    linha("");
    planos.forEach(p -> linha("- %s", p));
    Path saida = Path.of("target", "painel-em-escala.md");
    Files.writeString(saida, relatorio, StandardCharsets.UTF_8);
    System.out.println(relatorio);

    assertThat(lentos).as("requests with p95 >= 200 ms").isEmpty();
    assertThat(planos)
        .as("unbounded Seq Scan of webhook_eventos or outbox")
        .noneMatch(p -> p.contains(PlanosDoPainel.VARREDURA_INTEIRA));
  }

  private void preencher() {
    // Rows as the receptor stores them and the applier settles them, received in order over DIAS
    // days; the last PENDENTES still pending (a backlog), one in 200 an anomaly.
    int parte = 500_000;
    for (int de = 1; de <= LINHAS; de += parte) {
      int ate = Math.min(LINHAS, de + parte - 1);
      dono.sql(
              """
              INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em,
                                           aplicado_em, resultado, motivo)
              SELECT 'evt_' || left(md5(i::text), 20), 'ord_' || left(md5((i / 4)::text), 16),
                     'order.paid',
                     jsonb_build_object('id', 'evt_' || i, 'type', 'order.paid', 'sequence', i % 4 + 1,
                       'data', jsonb_build_object('id', 'ord_' || i / 4, 'status', 'paid',
                         'total_cents', 1000 + i % 9000,
                         'customer_email', 'cliente' || i / 4 || '@example.com')),
                     t,
                     CASE WHEN i > :linhas - :pendentes THEN NULL ELSE t + interval '1 second' END,
                     CASE WHEN i > :linhas - :pendentes THEN NULL
                          WHEN i % 200 = 0 THEN 'regressao_de_terminal'
                          WHEN i % 1000 = 1 THEN 'fato_invalido'
                          ELSE 'aplicado' END,
                     CASE WHEN i % 1000 = 1 AND i <= :linhas - :pendentes THEN 'bad instant' END
                FROM generate_series(:de, :ate) AS i,
                     LATERAL (SELECT now() - make_interval(days => :dias)
                                     + make_interval(secs => i * (:dias * 86400.0 / :linhas)) AS t) AS s
              """)
          .param("de", de)
          .param("ate", ate)
          .param("linhas", LINHAS)
          .param("pendentes", PENDENTES)
          .param("dias", DIAS)
          .update();
    }
    // One effect per order, sent two seconds after it was born but for the last few hundred.
    dono.sql(
            """
            INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email,
                                criado_em, enviado_em)
            SELECT 'ord_' || left(md5(o::text), 16), 'liberar_separacao', 'pago', 1000,
                   'cliente' || o || '@example.com', t,
                   CASE WHEN o > :pedidos - 300 THEN NULL ELSE t + interval '2 seconds' END
              FROM generate_series(0, :pedidos) AS o,
                   LATERAL (SELECT now() - make_interval(days => :dias)
                                   + make_interval(secs => 4 * o * (:dias * 86400.0 / :linhas)) AS t) AS s
            """)
        .param("pedidos", LINHAS / 4)
        .param("dias", DIAS)
        .param("linhas", LINHAS)
        .update();
    // The orders those events made, for the order's page and the search by email.
    dono.sql(
            """
            INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem)
            SELECT 'ord_' || left(md5(o::text), 16), 'pago', 1000, 'cliente' || o || '@example.com', 2
              FROM generate_series(0, :pedidos) AS o
            """)
        .param("pedidos", LINHAS / 4)
        .update();
    // A week of minutes, as the applier's job leaves them.
    dono.sql(
            """
            INSERT INTO fluxo_por_minuto (minuto, recebidos, aplicados, resultados, publicados,
                                          aplicacao_ms, pendentes, pendente_idade_s)
            SELECT m, 110 + (extract(minute FROM m))::int, 110,
                   '{"aplicado": 100, "evento_antigo": 7, "regressao_de_terminal": 3}', 28,
                   ARRAY[0, 3, 40, 90, 105, 108, 109, 110, 110, 110, 110, 110, 110, 110, 110]::bigint[],
                   5, 2.5
              FROM generate_series(date_trunc('minute', now()) - interval '7 days',
                                   date_trunc('minute', now()) - interval '1 minute',
                                   interval '1 minute') AS m
            ON CONFLICT (minuto) DO NOTHING
            """)
        .update();
    dono.sql("VACUUM ANALYZE webhook_eventos").update();
    dono.sql("VACUUM ANALYZE pedidos").update();
    dono.sql("VACUUM ANALYZE outbox").update();
    dono.sql("VACUUM ANALYZE fluxo_por_minuto").update();
  }

  private double[] medir(String caminho) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest pedido =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + porta + caminho))
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString((USUARIO + ":" + SENHA).getBytes(StandardCharsets.UTF_8)))
            .timeout(Duration.ofSeconds(30))
            .build();
    double[] ms = new double[MEDIDAS];
    for (int i = -AQUECIMENTO; i < MEDIDAS; i++) {
      long inicio = System.nanoTime();
      HttpResponse<byte[]> resposta = http.send(pedido, HttpResponse.BodyHandlers.ofByteArray());
      double tempo = (System.nanoTime() - inicio) / 1e6;
      assertThat(resposta.statusCode()).as(caminho).isEqualTo(200);
      if (i >= 0) {
        ms[i] = tempo;
      }
    }
    Arrays.sort(ms);
    return ms;
  }

  private static double percentil(double[] ordenados, double q) {
    return ordenados[(int) Math.min(ordenados.length - 1, Math.ceil(q * ordenados.length) - 1)];
  }

  private long contar(String tabela) {
    return dono.sql("SELECT count(*) FROM " + tabela).query(Long.class).single();
  }

  private String tamanho(String tabela) {
    return dono.sql("SELECT pg_size_pretty(pg_total_relation_size(CAST(? AS regclass)))")
        .param(tabela)
        .query(String.class)
        .single();
  }

  private static double segundos(long desde) {
    return (System.nanoTime() - desde) / 1e9;
  }

  private void linha(String formato, Object... valores) {
    relatorio.append(formato.formatted(valores)).append('\n');
  }

  /** PostgreSQL's md5(text), to name rows the fill made. */
  private static String md5(String texto) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("MD5").digest(texto.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
