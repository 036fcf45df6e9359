package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.EventoAplicado;
import pedidos.aplicador.aplicacao.FalhasDeAplicacao;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.Resultado;

/**
 * The ops status page in a real headless browser (Debian's chromium): the page's script fetches the
 * panel and renders the pipeline and the anomalies with their orders.
 */
class PaginaDeStatusTest extends ContextoWebDoPainel {

  @LocalManagementPort int portaDeGestao;
  @Autowired JdbcClient jdbc;
  @Autowired AplicadorDeEventos aplicador;
  @Autowired MetricasDoAplicador metricas;
  @Autowired FalhasDeAplicacao falhas;

  @Test
  void mostraOFluxoEAsAnomaliasComSeusPedidos(@TempDir Path perfil) throws Exception {
    String pedido = "ord-status-" + UUID.randomUUID().toString().substring(0, 8);
    guardar(pedido + "-pago", pedido, "order.paid", 10);
    guardar(pedido + "-cancelado", pedido, "order.canceled", 20);
    guardar(pedido + "-enviado", pedido, "order.shipped", 30);
    for (String evento : List.of("-pago", "-cancelado", "-enviado")) {
      aplicador.aplicar(pedido + evento, ModoDeAplicacao.NORMAL);
    }
    String falhou = pedido + "-falhou";
    guardar(falhou, pedido + "x", "order.paid", 1);
    falhas.assentar(
        new RegistroDeEvento(falhou, pedido + "x", "order.paid", "{}", null),
        new IllegalStateException("a bug"));

    // An invalid fact whose reason quotes the customer's email, as the reader words it.
    String invalido = pedido + "-email";
    jdbc.sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
            VALUES (?, ?, 'order.paid', ?::jsonb)
            """)
        .params(
            invalido,
            pedido + "e",
            """
            {"id": "%s", "type": "order.paid", "sequence": 1,
             "data": {"id": "%se", "customer_email": {"a": "cliente.secreto@example.com"}}}
            """
                .formatted(invalido, pedido))
        .update();
    aplicador.aplicar(invalido, ModoDeAplicacao.NORMAL);

    // The panel's round is cached for a few seconds, and the context is shared: another class may
    // have read it a moment before these rows were written.
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              // The browser logs in with the credentials in the URL, as an operator would through
              // its prompt.
              String dom = ChromiumSemCabeca.renderizar(comLogin("/status.html"), perfil);

              assertThat(dom)
                  .contains(pedido)
                  .contains(pedido + "-enviado")
                  .contains("regressao_de_terminal")
                  .contains(falhou)
                  .contains("falha_de_aplicacao")
                  .contains("java.lang.IllegalStateException: a bug");
              assertThat(dom)
                  .as("the reason is shown with the email masked")
                  .contains(invalido)
                  .contains("c***@example.com")
                  .doesNotContain("cliente.secreto");
              assertThat(dom).containsPattern("id=\"caixa-falhando\">[0-9]+<");
              assertThat(dom).as("no error shown").contains("<p id=\"erro\"></p>");
              assertThat(dom).containsPattern("id=\"caixa-total\">[1-9][0-9]*<");
              assertThat(dom).containsPattern("id=\"outbox-total\">[0-9]+<");
            });
  }

  @Test
  void saudeIncluiOBancoOKafkaEOOuvinteParaOperadores() {
    // Healthy once the listener's consumers have their partitions, a moment after the start.
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              var resposta = get(portaDeGestao, "/actuator/health", USUARIO, SENHA);

              assertThat(resposta.statusCode()).isEqualTo(200);
              assertThat(resposta.body())
                  .containsPattern("\"db\":\\{\"details\":\\{[^}]*\\},\"status\":\"UP\"")
                  .containsPattern("\"kafka\":\\{\"details\":\\{[^}]*\\},\"status\":\"UP\"")
                  .containsPattern("\"ouvinte\":\\{\"details\":\\{[^}]*\\},\"status\":\"UP\"");
            });
  }

  @Test
  void metricasDoAplicadorEDoConsumidorNoPrometheusParaOperadores() throws Exception {
    String pedido = "ord-metricas-" + UUID.randomUUID().toString().substring(0, 8);
    guardar(pedido + "-pago", pedido, "order.paid", 1);
    aplicador.aplicar(pedido + "-pago", ModoDeAplicacao.NORMAL);
    metricas.aplicado(
        "kafka", new EventoAplicado(pedido + "-pago", pedido, Resultado.APLICADO, List.of()), 1);

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(get(portaDeGestao, "/actuator/prometheus", USUARIO, SENHA).body())
                    .contains("aplicador_eventos_total{origem=\"kafka\",resultado=\"aplicado\"")
                    .contains("aplicador_aplicacao_seconds_bucket")
                    .contains("kafka_consumer_fetch_manager_records_lag_max"));
  }

  private void guardar(String evento, String pedido, String tipo, int sequencia) {
    jdbc.sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
            VALUES (?, ?, ?, ?::jsonb)
            """)
        .params(
            evento,
            pedido,
            tipo,
            """
            {"id": "%s", "type": "%s", "sequence": %d, "data": {"id": "%s"}}
            """
                .formatted(evento, tipo, sequencia, pedido))
        .update();
  }
}
