package pedidos.aplicador.reconciliacao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.Assinados;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.CaixaDeEntrada;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.Status;

/**
 * Issue 29: a fact that reconciliation reads from the store's API and that no webhook delivered is
 * recorded as a lost webhook ({@code webhooks_nao_entregues}), with its event type, version, when
 * the API revealed it and the fact's own time; a webhook that comes later through Kafka marks it
 * late. A fact whose webhook the inbox holds, applied or still pending, is not recorded. On the
 * real PostgreSQL, the real Kafka listener and a real HTTP API.
 */
@Tag("todas-as-versoes-do-postgres")
class WebhooksNaoEntreguesTest extends ContextoDoAplicador {

  private static final OffsetDateTime CURSOR = OffsetDateTime.parse("2026-11-29T00:00:00Z");

  @Autowired JdbcClient jdbc;
  @Autowired DataSource dataSource;
  @Autowired TransactionTemplate transacao;
  @Autowired CaixaDeEntrada caixaDeEntrada;
  @Autowired AplicadorDeEventos aplicador;
  @Autowired MetricasDoAplicador metricas;
  @Autowired MeterRegistry registro;
  @Autowired KafkaTemplate<String, String> kafka;

  private final String p = UUID.randomUUID().toString().substring(0, 8) + "-";

  @BeforeEach
  void cursorConhecido() {
    jdbc.sql("UPDATE cursores SET valor = ? WHERE nome = 'pedidos_loja'").param(CURSOR).update();
  }

  @Test
  void soOQueNenhumWebhookEntregouEhRegistrado_eUmWebhookTardioMarcaAtrasado() throws Exception {
    // Delivered and applied before the round: the API's fact is the same fact.
    webhook(p + "entregue", "order.paid", 3, "2026-11-29T10:00:01Z", true);
    // Delivered, stored, not applied yet (the listener is behind): delivered all the same.
    webhook(p + "pendente", "order.paid", 2, "2026-11-29T10:00:02Z", false);
    // An older fact of an order whose newest one is lost: only the newest is recorded.
    webhook(p + "perdido", "order.created", 1, "2026-11-29T10:00:00Z", true);
    double naoEntreguesAntes = contador("aplicador.webhooks.nao_entregues");
    double atrasadosAntes = contador("aplicador.webhooks.atrasados");
    Instant antesDaRodada = Instant.now();

    try (var api = new ApiDaLojaDeTeste(paginas())) {
      assertThat(reconciliacao(api).reconciliar().novos()).isEqualTo(4);
    }

    assertThat(registrados())
        .as("only the facts no webhook delivered")
        .containsOnlyKeys(
            "api:" + p + "perdido:s5:shipped", "api:" + p + "tardio:2026-11-29T10:00:04.250Z:paid");
    Map<String, Object> perdido = registro("api:" + p + "perdido:s5:shipped");
    assertThat(perdido)
        .containsEntry("pedido_id", p + "perdido")
        .containsEntry("tipo", "order.shipped")
        .containsEntry("versao", 5L)
        .containsEntry("sequencia", 5L)
        .containsEntry("webhook_evento_id", null);
    assertThat(((OffsetDateTime) perdido.get("fato_em")).toInstant())
        .isEqualTo(Instant.parse("2026-11-29T10:00:03Z"));
    assertThat(((OffsetDateTime) perdido.get("revelado_em")).toInstant())
        .as("when the API revealed it: when reconciliation stored it")
        .isAfterOrEqualTo(antesDaRodada.minusSeconds(1))
        .isEqualTo(recebidoEm("api:" + p + "perdido:s5:shipped"));
    Map<String, Object> tardio = registro("api:" + p + "tardio:2026-11-29T10:00:04.250Z:paid");
    assertThat(tardio)
        .containsEntry("tipo", "order.paid")
        .containsEntry("sequencia", null)
        .as("without a sequence the version is the instant's milliseconds times ten plus the rank")
        .containsEntry(
            "versao",
            Instant.parse("2026-11-29T10:00:04.250Z").toEpochMilli() * 10 + Status.PAGO.rank());
    assertThat(contador("aplicador.webhooks.nao_entregues") - naoEntreguesAntes).isEqualTo(2);
    assertThat(StatusDoPedido.atual(jdbc, p + "perdido")).isEqualTo("enviado");

    // The same round again, and a forced re-derivation of the fact, record nothing more.
    try (var api = new ApiDaLojaDeTeste(paginas())) {
      assertThat(reconciliacao(api).reconciliar().novos()).isZero();
    }
    aplicador.aplicar("api:" + p + "perdido:s5:shipped", ModoDeAplicacao.FORCADO);
    assertThat(registrados()).hasSize(2);
    assertThat(contador("aplicador.webhooks.nao_entregues") - naoEntreguesAntes).isEqualTo(2);

    // The webhook of the instant-versioned fact finally arrives, through Kafka: late, not lost.
    String tardioWebhook = p + "wh-tardio";
    Instant chegada = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    kafka
        .send(
            Assinados.registro(
                "loja.eventos",
                p + "tardio",
                """
                {"evento_id": "%1$s", "recurso_id": "%2$s", "tipo": "order.paid",
                 "payload": {"id": "%1$s", "type": "order.paid",
                             "occurred_at": "2026-11-29T10:00:04.250Z",
                             "data": {"id": "%2$s", "status": "paid"}},
                 "recebido_em": "%3$s"}
                """
                    .formatted(tardioWebhook, p + "tardio", chegada)))
        .get();

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(registro("api:" + p + "tardio:2026-11-29T10:00:04.250Z:paid"))
                    .containsEntry("webhook_evento_id", tardioWebhook));
    assertThat(
            ((OffsetDateTime)
                    registro("api:" + p + "tardio:2026-11-29T10:00:04.250Z:paid")
                        .get("webhook_recebido_em"))
                .toInstant())
        .isEqualTo(chegada);
    assertThat(registro("api:" + p + "perdido:s5:shipped"))
        .as("the other stays lost")
        .containsEntry("webhook_evento_id", null);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> contador("aplicador.webhooks.atrasados") - atrasadosAntes == 1);
  }

  @Test
  void oPapelDoAplicadorSoMarcaOAtraso() {
    String id = "api:" + p + "x:s1:paid";
    jdbc.sql(
            "INSERT INTO webhooks_nao_entregues (evento_id, pedido_id, tipo, versao, revelado_em)"
                + " VALUES (?, ?, 'order.paid', 1, now())")
        .params(id, p + "x")
        .update();
    jdbc.sql("UPDATE webhooks_nao_entregues SET webhook_evento_id = 'w' WHERE evento_id = ?")
        .param(id)
        .update();

    for (String proibido :
        List.of(
            "UPDATE webhooks_nao_entregues SET tipo = 'x' WHERE evento_id = '" + id + "'",
            "DELETE FROM webhooks_nao_entregues WHERE evento_id = '" + id + "'")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> jdbc.sql(proibido).update())
          .as(proibido)
          .isInstanceOfSatisfying(
              org.springframework.dao.DataAccessException.class,
              e ->
                  assertThat(((java.sql.SQLException) e.getMostSpecificCause()).getSQLState())
                      .isEqualTo("42501"));
    }
  }

  /** An event the receptor stored, applied (or left pending) as the listener would. */
  private void webhook(String pedido, String tipo, int sequencia, String em, boolean aplicar) {
    String eventoId = p + "wh-" + pedido + "-" + sequencia;
    caixaDeEntrada.guardarSeAusente(
        new RegistroDeEvento(
            eventoId,
            pedido,
            tipo,
            """
            {"id": "%s", "type": "%s", "sequence": %d, "occurred_at": "%s",
             "data": {"id": "%s"}}
            """
                .formatted(eventoId, tipo, sequencia, em, pedido),
            null));
    if (aplicar) {
      aplicador.aplicar(eventoId, ModoDeAplicacao.NORMAL);
    }
  }

  private Map<String, Map<String, Object>> registrados() {
    Map<String, Map<String, Object>> linhas = new java.util.TreeMap<>();
    jdbc.sql("SELECT evento_id FROM webhooks_nao_entregues WHERE pedido_id LIKE ?")
        .param(p + "%")
        .query(String.class)
        .list()
        .forEach(id -> linhas.put(id, registro(id)));
    return linhas;
  }

  private Map<String, Object> registro(String eventoId) {
    return jdbc.sql(
            """
            SELECT pedido_id, tipo, versao, sequencia, fato_em, revelado_em, webhook_evento_id,
                   webhook_recebido_em
              FROM webhooks_nao_entregues WHERE evento_id = ?
            """)
        .param(eventoId)
        .query(
            (rs, n) -> {
              Map<String, Object> linha = new java.util.HashMap<>();
              for (String coluna :
                  List.of("pedido_id", "tipo", "webhook_evento_id", "sequencia", "versao")) {
                linha.put(coluna, rs.getObject(coluna));
              }
              for (String coluna : List.of("fato_em", "revelado_em", "webhook_recebido_em")) {
                linha.put(coluna, rs.getObject(coluna, OffsetDateTime.class));
              }
              return linha;
            })
        .single();
  }

  private Instant recebidoEm(String eventoId) {
    return jdbc.sql("SELECT recebido_em FROM webhook_eventos WHERE evento_id = ?")
        .param(eventoId)
        .query(OffsetDateTime.class)
        .single()
        .toInstant();
  }

  private double contador(String nome) {
    return registro.get(nome).counter().count();
  }

  private Reconciliacao reconciliacao(ApiDaLojaDeTeste api) {
    return new Reconciliacao(
        new ClienteDaLoja(api.url(), "segredo", 100, Duration.ofSeconds(5)),
        jdbc,
        caixaDeEntrada,
        aplicador,
        metricas,
        dataSource,
        transacao,
        ReconciliacaoTest.config(100),
        Clock.systemUTC(),
        new SimpleMeterRegistry());
  }

  private List<String> paginas() {
    return List.of(
        """
        {"orders": [
          {"id": "%1$sentregue", "status": "paid", "sequence": 3,
           "updated_at": "2026-11-29T10:00:01Z"},
          {"id": "%1$spendente", "status": "paid", "sequence": 2,
           "updated_at": "2026-11-29T10:00:02Z"}
        ], "next": "1"}
        """
            .formatted(p),
        """
        {"orders": [
          {"id": "%1$sperdido", "status": "shipped", "sequence": 5,
           "updated_at": "2026-11-29T10:00:03Z"},
          {"id": "%1$stardio", "status": "paid", "updated_at": "2026-11-29T10:00:04.250Z"}
        ], "next": null}
        """
            .formatted(p));
  }
}
