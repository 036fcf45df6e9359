package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;

/**
 * The ops surfaces are for operators only, and a flood of page loads costs the database one round
 * of queries per cache period, on connections the applies never need.
 */
// Longer than the test, so that every request of a burst falls within one period: a context of
// its own.
@TestPropertySource(properties = "aplicador.painel.cache=10m")
class OperacoesProtegidasTest extends ContextoWebDoPainel {

  @LocalManagementPort int portaDeGestao;
  @Autowired PainelDeOperacoes painel;
  @Autowired MeterRegistry metricas;
  @Autowired DataSource poolDoServico;

  @Test
  void anonimoRecebe401SemDados() throws Exception {
    for (String caminho : List.of("/status.html", "/status/painel")) {
      HttpResponse<String> resposta = get(porta, caminho, null, null);

      assertThat(resposta.statusCode()).as(caminho).isEqualTo(401);
      assertThat(resposta.headers().firstValue("WWW-Authenticate"))
          .as("the browser's prompt")
          .hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
      assertThat(resposta.body()).doesNotContain("caixaDeEntrada").doesNotContain("anomalias");
    }
  }

  @Test
  void senhaErradaOuUsuarioErradoRecebe401() throws Exception {
    assertThat(get(porta, "/status/painel", USUARIO, SENHA + "x").statusCode()).isEqualTo(401);
    assertThat(get(porta, "/status/painel", "outro", SENHA).statusCode()).isEqualTo(401);
    assertThat(get(portaDeGestao, "/actuator/prometheus", USUARIO, "errada").statusCode())
        .isEqualTo(401);
  }

  @Test
  void operadorVeAPaginaEOPainel() throws Exception {
    HttpResponse<String> pagina = get(porta, "/status.html", USUARIO, SENHA);
    painel.esquecer();
    HttpResponse<String> json = get(porta, "/status/painel", USUARIO, SENHA);

    assertThat(pagina.statusCode()).isEqualTo(200);
    assertThat(pagina.body()).contains("status/painel");
    assertThat(json.statusCode()).isEqualTo(200);
    assertThat(json.body()).contains("\"caixaDeEntrada\"").contains("\"anomalias\"");
  }

  @Test
  void saudeSemCredenciaisDizSoOStatus() throws Exception {
    for (String caminho :
        List.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness")) {
      // Healthy once the listener's consumers have their partitions, a moment after the start.
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                HttpResponse<String> resposta = get(portaDeGestao, caminho, null, null);

                assertThat(resposta.statusCode()).as(caminho).isEqualTo(200);
                assertThat(resposta.body())
                    .as(caminho)
                    .contains("\"status\":\"UP\"")
                    .doesNotContain("components")
                    .doesNotContain("details");
              });
    }
    HttpResponse<String> operador = get(portaDeGestao, "/actuator/health", USUARIO, SENHA);
    assertThat(operador.body()).contains("\"components\"").contains("\"db\"");
    assertThat(get(portaDeGestao, "/actuator/health/readiness", USUARIO, SENHA).body())
        .as("ready only once the listener has its partitions")
        .contains("\"ouvinte\"")
        .contains("\"readinessState\"");
  }

  @Test
  void prometheusEInfoSoComCredenciais() throws Exception {
    for (String caminho : List.of("/actuator/prometheus", "/actuator/info", "/actuator")) {
      HttpResponse<String> resposta = get(portaDeGestao, caminho, null, null);
      assertThat(resposta.statusCode()).as(caminho).isEqualTo(401);
      assertThat(resposta.body()).as(caminho).doesNotContain("aplicador_");
    }
    HttpResponse<String> operador = get(portaDeGestao, "/actuator/prometheus", USUARIO, SENHA);
    assertThat(operador.statusCode()).isEqualTo(200);
    assertThat(operador.body()).contains("jvm_");
  }

  @Test
  void semCredenciaisOuComSenhaCurtaNaoParte() {
    assertThatThrownBy(() -> SegurancaDasOperacoes.validar("", SENHA))
        .hasMessageContaining("PEDIDOS_OPS_USUARIO");
    assertThatThrownBy(() -> SegurancaDasOperacoes.validar(USUARIO, null))
        .hasMessageContaining("PEDIDOS_OPS_SENHA");
    assertThatThrownBy(() -> SegurancaDasOperacoes.validar(USUARIO, "x".repeat(15)))
        .hasMessageContaining("PEDIDOS_OPS_SENHA");
    SegurancaDasOperacoes.validar(USUARIO, "x".repeat(16));
  }

  @Test
  void umaEnxurradaDeLeiturasFazUmaSoRodadaDeConsultas() throws Exception {
    painel.esquecer();
    double antes = rodadas();
    int leituras = 40;
    CountDownLatch largada = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(leituras);
    try {
      List<Future<HttpResponse<String>>> respostas = new ArrayList<>();
      for (int i = 0; i < leituras; i++) {
        Callable<HttpResponse<String>> leitura =
            () -> {
              largada.await();
              return get(porta, "/status/painel", USUARIO, SENHA);
            };
        respostas.add(threads.submit(leitura));
      }
      largada.countDown();
      List<String> instantes = new ArrayList<>();
      for (Future<HttpResponse<String>> resposta : respostas) {
        HttpResponse<String> r = resposta.get();
        assertThat(r.statusCode()).isEqualTo(200);
        instantes.add(agora(r.body()));
      }

      assertThat(rodadas() - antes).as("rounds of queries").isEqualTo(1.0);
      assertThat(instantes).as("every answer is the same round").containsOnly(instantes.get(0));
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void oPainelNaoPrecisaDoPoolDoServico() throws Exception {
    // Every connection of the listener's pool taken: a panel that borrowed from it would wait the
    // pool's connection timeout (5 s) and fail with 500.
    int tamanho = ((com.zaxxer.hikari.HikariDataSource) poolDoServico).getMaximumPoolSize();
    List<Connection> tomadas = new ArrayList<>();
    try {
      for (int i = 0; i < tamanho; i++) {
        tomadas.add(poolDoServico.getConnection());
      }
      painel.esquecer();
      double antes = rodadas();

      HttpResponse<String> resposta =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + porta + "/status/painel"))
                  .header("Authorization", autorizacao(USUARIO, SENHA))
                  .timeout(Duration.ofSeconds(4))
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(resposta.statusCode()).isEqualTo(200);
      assertThat(rodadas() - antes).as("it queried, not served from the cache").isEqualTo(1.0);
    } finally {
      for (Connection conexao : tomadas) {
        conexao.close();
      }
    }
  }

  private double rodadas() {
    var contador = metricas.find("aplicador.painel.rodadas").counter();
    return contador == null ? 0 : contador.count();
  }

  private static String agora(String json) {
    Matcher m = Pattern.compile("\"agora\":\"([^\"]+)\"").matcher(json);
    assertThat(m.find()).as(json).isTrue();
    return m.group(1);
  }
}
