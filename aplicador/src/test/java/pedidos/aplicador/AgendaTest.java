package pedidos.aplicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.CaixaDeEntrada;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.reconciliacao.ApiDaLojaDeTeste;
import pedidos.aplicador.reconciliacao.ApiDaLojaDeTeste.Comportamento;
import pedidos.aplicador.retencao.Retencao;
import pedidos.aplicador.varredura.Varredura;

/** The periodic tasks as the service schedules them, with the orders API held slow. */
class AgendaTest extends ContextoDoAplicador {

  @Autowired AplicadorProperties propriedades;
  @Autowired Varredura varredura;
  @Autowired Retencao retencao;
  @Autowired JdbcClient jdbc;
  @Autowired DataSource dataSource;
  @Autowired TransactionTemplate transacao;
  @Autowired CaixaDeEntrada caixaDeEntrada;
  @Autowired AplicadorDeEventos aplicador;
  @Autowired MetricasDoAplicador metricas;

  private final String p = UUID.randomUUID().toString().substring(0, 8) + "-";

  @Test
  void apiQueNaoRespondeNaoAtrasaAVarredura() throws Exception {
    var agendador = Agenda.agendaDoAplicador();
    agendador.initialize();
    var tarefas = new ScheduledTaskRegistrar();
    try {
      try (var api = new ApiDaLojaDeTeste(List.of("{\"orders\": [], \"next\": null}"))) {
        api.comportamento = Comportamento.PARADA;
        var agenda =
            new Agenda(
                comApi(api),
                varredura,
                retencao,
                jdbc,
                dataSource,
                transacao,
                caixaDeEntrada,
                aplicador,
                metricas,
                Clock.systemUTC(),
                new SimpleMeterRegistry(),
                agendador);
        agenda.configureTasks(tarefas);
        tarefas.afterPropertiesSet();
        await().atMost(Duration.ofSeconds(10)).until(() -> !api.pedidosRecebidos.isEmpty());

        // Reconciliation now waits on an API that will not answer for minutes.
        String evento = p + "e1";
        jdbc.sql(
                """
                INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
                VALUES (?, ?, 'order.paid', ?::jsonb, now() - interval '1 hour')
                """)
            .params(
                evento,
                p + "ord",
                """
                {"id": "%s", "type": "order.paid", "sequence": 1,
                 "occurred_at": "2026-11-30T10:00:00Z", "data": {"id": "%s"}}
                """
                    .formatted(evento, p + "ord"))
            .update();
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () ->
                    jdbc.sql(
                            "SELECT aplicado_em IS NOT NULL FROM webhook_eventos WHERE evento_id = ?")
                        .param(evento)
                        .query(Boolean.class)
                        .single());
        assertThat(api.pedidosRecebidos)
            .as("the reconciliation round is still waiting on its one request")
            .hasSize(1);
      }
    } finally {
      tarefas.destroy();
      agendador.shutdown();
    }
  }

  private AplicadorProperties comApi(ApiDaLojaDeTeste api) {
    return new AplicadorProperties(
        propriedades.topico(),
        propriedades.topicoDeDescarte(),
        propriedades.topicos(),
        propriedades.grupo(),
        propriedades.concorrencia(),
        propriedades.eventosPorTransacao(),
        propriedades.esperaPorLock(),
        propriedades.tentativasDeFalhaDesconhecida(),
        propriedades.esperaMaximaEntreTentativas(),
        true,
        new AplicadorProperties.Varredura(
            Duration.ofSeconds(30), Duration.ofMillis(200), propriedades.varredura().lote()),
        new AplicadorProperties.Reconciliacao(
            api.url().toString(),
            "segredo",
            Duration.ofMillis(100),
            Duration.ofMinutes(1),
            100,
            Duration.ofMinutes(5),
            50,
            Duration.ofMinutes(1)),
        propriedades.ops(),
        propriedades.painel(),
        // Retention has tests of its own; here it would only compete for the two threads' CPU.
        new AplicadorProperties.Retencao(
            false,
            Duration.ofDays(30),
            Duration.ofDays(30),
            Duration.ofDays(30),
            500,
            Duration.ofHours(1),
            Duration.ZERO),
        propriedades.rederivacaoEmMassa(),
        propriedades.assinatura());
  }
}
