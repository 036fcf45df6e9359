package pedidos.pontaaponta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import pedidos.infra.ServicoEmProcesso;
import pedidos.pontaaponta.MetricasNasRegras.Expressao;

/**
 * The alerting rules and the dashboard in docs/observabilidade ask only for metrics the services
 * really expose: the three services run as processes (the JVM's {@link SistemaCompartilhado},
 * before the pipeline's scenarios fail its parts), a few events go through them, and every metric
 * name in every rule and panel must appear in some service's {@code /actuator/prometheus}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Order(1)
class MetricasDasRegrasTest {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private SistemaDoTeste sistema;

  @BeforeAll
  void iniciar() {
    sistema = SistemaCompartilhado.obter().sistema();
  }

  @Test
  void oExtratorAchaOsNomesEIgnoraFuncoesRotulosEIntervalos() {
    assertThat(
            MetricasNasRegras.metricas(
                "histogram_quantile(0.99, sum by (le, origem) (rate(a_seconds_bucket{x=\"y\"}[5m])))"
                    + " > 1e6 and on() max(b_total offset 5m) > 16 * 1024 or absent(c)"))
        .containsExactly("a_seconds_bucket", "b_total", "c");
    assertThat(MetricasNasRegras.dasRegras(MetricasNasRegras.REGRAS)).hasSizeGreaterThan(8);
    assertThat(MetricasNasRegras.doPainel(MetricasNasRegras.PAINEL)).hasSizeGreaterThan(10);
    // The names the files ask for are read, so the comparison with the scrapes is not vacuous.
    assertThat(
            MetricasNasRegras.dasRegras(MetricasNasRegras.REGRAS).stream()
                .flatMap(expressao -> MetricasNasRegras.metricas(expressao.promql()).stream())
                .toList())
        .contains(
            "kafka_consumer_fetch_manager_records_lag_max",
            "aplicador_caixa_pendente_idade_seconds",
            "publicador_slot_atraso_bytes",
            "publicador_outbox_pendente_idade_seconds",
            "aplicador_reconciliacao_cursor_idade_seconds",
            "receptor_requisicoes_seconds_count");
  }

  @Test
  void cadaRegraECadaPainelUsamSoMetricasQueOsServicosExpoem() throws Exception {
    List<Expressao> expressoes = new ArrayList<>();
    expressoes.addAll(MetricasNasRegras.dasRegras(MetricasNasRegras.REGRAS));
    expressoes.addAll(MetricasNasRegras.doPainel(MetricasNasRegras.PAINEL));
    // Counters and timers with tags appear at their first use: some events through the pipeline.
    for (int i = 0; i < 5; i++) {
      String corpo =
          """
          {"id":"evt-regras-%d","type":"order.created","occurred_at":"2026-12-01T12:00:00.000Z",\
          "data":{"id":"ped-regras-%d","status":"open","total_cents":1990,\
          "customer_email":"cliente@example.com"}}"""
              .formatted(i, i);
      assertThat(sistema.entregar(corpo.getBytes(StandardCharsets.UTF_8)).statusCode())
          .isEqualTo(200);
    }

    Map<String, Set<String>> faltando = new TreeMap<>();
    try {
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofSeconds(2))
          .until(
              () -> {
                Set<String> expostas = expostasPorTodos();
                faltando.clear();
                for (Expressao expressao : expressoes) {
                  for (String nome : MetricasNasRegras.metricas(expressao.promql())) {
                    if (!expostas.contains(nome)) {
                      faltando.computeIfAbsent(nome, n -> new TreeSet<>()).add(expressao.origem());
                    }
                  }
                }
                return faltando.isEmpty();
              });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("Metrics no service exposes, with what uses them: " + faltando, e);
    }

    // The slot's lag is measured, not unknown, once the active relay has read its slot.
    ServicoEmProcesso ativo =
        SistemaDoTeste.papel(sistema.relay).orElse("").equals("ATIVO")
            ? sistema.relay
            : sistema.reserva;
    await()
        .atMost(Duration.ofMinutes(1))
        .untilAsserted(
            () ->
                assertThat(valor(raspar(ativo), "publicador_slot_atraso_bytes"))
                    .isNotNaN()
                    .isGreaterThanOrEqualTo(0));
  }

  private Set<String> expostasPorTodos() throws IOException, InterruptedException {
    Set<String> nomes = new TreeSet<>();
    for (ServicoEmProcesso servico :
        List.of(sistema.receptor, sistema.aplicador, sistema.relay, sistema.reserva)) {
      nomes.addAll(MetricasNasRegras.expostas(raspar(servico)));
    }
    return nomes;
  }

  private static String raspar(ServicoEmProcesso servico) throws IOException, InterruptedException {
    HttpResponse<String> resposta =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:" + servico.portaDeGestao() + "/actuator/prometheus"))
                .header("Authorization", SistemaDoTeste.autorizacaoDeOps())
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(resposta.statusCode()).as(servico.nome()).isEqualTo(200);
    return resposta.body();
  }

  private static double valor(String exposicao, String nome) {
    return exposicao
        .lines()
        .filter(linha -> linha.startsWith(nome + " ") || linha.startsWith(nome + "{"))
        .mapToDouble(linha -> Double.parseDouble(linha.substring(linha.lastIndexOf(' ') + 1)))
        .findFirst()
        .orElse(Double.NaN);
  }
}
