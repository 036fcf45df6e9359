package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.publicador.motor.EstadoDoMotor;
import pedidos.publicador.supervisao.Papel;
import pedidos.testes.InfraDeTeste;
import tools.jackson.databind.JsonNode;

/** The relay's normal path, one relay for the whole class, real PostgreSQL, Kafka and Debezium. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("todas-as-versoes-do-postgres")
class PublicadorTest {

  private static final String SLOT = "teste_publicador";

  private final String prefixo = UUID.randomUUID().toString().substring(0, 8) + "-";
  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();
  private RelayDeTeste relay;
  private LeitorDeTopico eventos;
  private LeitorDeTopico efeitos;

  @BeforeAll
  void iniciar() {
    relay = RelayDeTeste.iniciar(SLOT, "pub").aguardarTransmitindo();
    eventos = LeitorDeTopico.novos(kafka, "loja.eventos");
    efeitos = LeitorDeTopico.novos(kafka, "separacao.efeitos");
  }

  @AfterAll
  void parar() {
    eventos.close();
    efeitos.close();
    relay.close();
    BancoDeTeste.apagarSlot(SLOT);
  }

  @Test
  void eventoDoInboxChegaPelaChaveDoPedidoComOEventoInteiro() {
    String pedido = prefixo + "ord-1";
    String payload =
        """
        {"id": "%se1", "type": "order.paid", "sequence": 7.000000000000001,
         "data": {"id": "%s", "total_cents": 1990.0, "customer_email": "a@loja",
                  "itens": [{"sku": "x", "qtd": 2}]}}
        """
            .formatted(prefixo, pedido);
    BancoDeTeste.inserirEvento(prefixo + "e1", pedido, "order.paid", payload);

    ConsumerRecord<String, String> registro =
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> eventos.comChave(pedido), l -> !l.isEmpty())
            .get(0);

    assertThat(LeitorDeTopico.assinado(registro)).as("signed by the relay").isTrue();
    JsonNode valor = LeitorDeTopico.valor(registro);
    assertThat(valor.propertyNames())
        .containsExactlyInAnyOrder("evento_id", "recurso_id", "tipo", "payload", "recebido_em");
    assertThat(valor.path("evento_id").asString()).isEqualTo(prefixo + "e1");
    assertThat(valor.path("recurso_id").asString()).isEqualTo(pedido);
    assertThat(valor.path("tipo").asString()).isEqualTo("order.paid");
    JsonNode enviado = valor.path("payload");
    assertThat(enviado.isObject()).as("payload is a JSON object, not a string").isTrue();
    assertThat(enviado).isEqualTo(LeitorDeTopico.JSON.readTree(payload));
    assertThat(enviado.path("sequence").decimalValue())
        .as("numbers kept exactly")
        .isEqualTo(new BigDecimal("7.000000000000001"));
    assertThat(enviado.path("data").path("total_cents").decimalValue().toPlainString())
        .isEqualTo("1990.0");
    Timestamp recebidoEm =
        BancoDeTeste.JDBC
            .sql("SELECT recebido_em FROM webhook_eventos WHERE evento_id = ?")
            .param(prefixo + "e1")
            .query(Timestamp.class)
            .single();
    assertThat(valor.path("recebido_em").asString()).isEqualTo(recebidoEm.toInstant().toString());
  }

  /**
   * Issue 11: whatever the receptor accepts reaches the topic, at the envelope's extremes at once:
   * the deepest nesting, the longest key, numbers PostgreSQL writes out as 401 to 403 characters,
   * and a payload whose jsonb text is just under the envelope's size. Numbers arrive with the very
   * text PostgreSQL stores.
   */
  @Test
  void eventoNosLimitesDoEnvelopeChegaIntacto() {
    String pedido = prefixo + "ord-lim";
    String numeros =
        """
        "grande": 9.%s8e400, "negativo": -1.%s2e-309, "um_e_400": 1e400, "pequeno": 1e-400
        """
            .formatted("7".repeat(90), "3".repeat(90))
            .strip();
    StringBuilder fundo = new StringBuilder();
    // The body's object is level 1: 62 objects and an array make 64.
    fundo.append("{\"a\": ".repeat(EnvelopeDeEntrada.PROFUNDIDADE - 2));
    fundo.append("[1.50]");
    fundo.append("}".repeat(EnvelopeDeEntrada.PROFUNDIDADE - 2));
    String nome = "\u00e9".repeat(EnvelopeDeEntrada.CARACTERES_DE_NOME);
    String semTexto =
        "{\"id\": \"lim\", \"%s\": 1, %s, \"fundo\": %s, \"texto\": \"%%s\"}"
            .formatted(nome, numeros, fundo);
    long base = bytesNoJsonb(semTexto.formatted(""));
    String payload =
        semTexto.formatted("x".repeat((int) (EnvelopeDeEntrada.BYTES_NO_JSONB - base)));
    assertThat(bytesNoJsonb(payload)).isEqualTo(EnvelopeDeEntrada.BYTES_NO_JSONB);
    BancoDeTeste.inserirEvento(prefixo + "lim", pedido, "order.paid", payload);

    ConsumerRecord<String, String> registro =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> eventos.comChave(pedido), l -> !l.isEmpty())
            .get(0);

    for (String campo : List.of("grande", "negativo", "um_e_400", "pequeno")) {
      String comoNoBanco =
          BancoDeTeste.JDBC
              .sql("SELECT (payload -> ?)::text FROM webhook_eventos WHERE evento_id = ?")
              .params(campo, prefixo + "lim")
              .query(String.class)
              .single();
      assertThat(comoNoBanco.length()).isGreaterThan(400);
      assertThat(registro.value()).contains("\"" + campo + "\":" + comoNoBanco + ",");
    }
    JsonNode enviado = LeitorDeTopico.valor(registro).path("payload");
    String noBanco =
        BancoDeTeste.JDBC
            .sql("SELECT payload::text FROM webhook_eventos WHERE evento_id = ?")
            .param(prefixo + "lim")
            .query(String.class)
            .single();
    assertThat(enviado).isEqualTo(LeitorDeTopico.JSON.readTree(noBanco));
    JsonNode nivel = enviado.path("fundo");
    for (int i = 0; i < EnvelopeDeEntrada.PROFUNDIDADE - 2; i++) {
      nivel = nivel.path("a");
    }
    assertThat(nivel.path(0).decimalValue().toPlainString()).isEqualTo("1.50");
    assertThat(enviado.path(nome).asInt()).isEqualTo(1);
  }

  /** The size of PostgreSQL's text of a JSON document stored as jsonb. */
  private static long bytesNoJsonb(String json) {
    return BancoDeTeste.JDBC
        .sql("SELECT octet_length(CAST(? AS jsonb)::text)")
        .param(json)
        .query(Long.class)
        .single();
  }

  @Test
  void umInsertDeVariasLinhasChegaInteiro() {
    BancoDeTeste.JDBC
        .sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
            SELECT :prefixo || 'm' || i, :prefixo || 'multi-' || i, 'order.created', '{}'::jsonb
              FROM generate_series(1, 50) AS i
            """)
        .param("prefixo", prefixo)
        .update();

    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> assertThat(eventos.campos(prefixo + "multi-", "evento_id")).hasSize(50));
  }

  @Test
  void efeitoDoOutboxChegaComChaveDeIdempotenciaEFicaEnviado() {
    String pedido = prefixo + "ord-2";
    BancoDeTeste.inserirEfeito(pedido, "liberar_separacao", "pago", 1990L, "a@loja");
    BancoDeTeste.inserirEfeito(pedido, "interromper_separacao", "cancelado", null, null);

    var registros =
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> efeitos.comChave(pedido), l -> l.size() >= 2);

    ConsumerRecord<String, String> liberar =
        registros.stream()
            .filter(
                r -> LeitorDeTopico.valor(r).path("efeito").asString().equals("liberar_separacao"))
            .findFirst()
            .orElseThrow();
    assertThat(LeitorDeTopico.cabecalho(liberar, "idempotency-key"))
        .isEqualTo(pedido + ":liberar_separacao");
    assertThat(LeitorDeTopico.assinado(liberar)).as("signed by the relay").isTrue();
    JsonNode valor = LeitorDeTopico.valor(liberar);
    assertThat(valor.propertyNames())
        .containsExactlyInAnyOrder("pedido_id", "efeito", "status", "total_centavos", "criado_em");
    assertThat(valor.path("pedido_id").asString()).isEqualTo(pedido);
    assertThat(valor.path("status").asString()).isEqualTo("pago");
    assertThat(valor.path("total_centavos").asLong()).isEqualTo(1990L);
    assertThat(liberar.value())
        .as("the outbox row's email stays in PostgreSQL: picking does not need it")
        .doesNotContain("a@loja");
    ConsumerRecord<String, String> interromper =
        registros.stream().filter(r -> r != liberar).findFirst().orElseThrow();
    assertThat(LeitorDeTopico.valor(interromper).path("total_centavos").isNull()).isTrue();

    await().atMost(Duration.ofSeconds(10)).until(() -> BancoDeTeste.naoEnviados(pedido) == 0);
  }

  @Test
  void atualizacoesERemocoesNaoSaoEncaminhadas() {
    String pedido = prefixo + "ord-3";
    BancoDeTeste.inserirEvento(prefixo + "u1", pedido, "order.created", "{}");
    BancoDeTeste.inserirEvento(prefixo + "u2", pedido, "order.paid", "{}");
    BancoDeTeste.inserirEfeito(pedido, "liberar_separacao", "pago", 10L, null);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> eventos.comChave(pedido).size() == 2 && efeitos.comChave(pedido).size() == 1);

    BancoDeTeste.JDBC
        .sql(
            "UPDATE webhook_eventos SET aplicado_em = now(), resultado = 'aplicado'"
                + " WHERE evento_id = ?")
        .param(prefixo + "u1")
        .update();
    BancoDeTeste.JDBC
        .sql("DELETE FROM webhook_eventos WHERE evento_id = ?")
        .param(prefixo + "u2")
        .update();
    BancoDeTeste.JDBC
        .sql("UPDATE outbox SET status = 'enviado' WHERE pedido_id = ?")
        .param(pedido)
        .update();
    BancoDeTeste.JDBC.sql("DELETE FROM outbox WHERE pedido_id = ?").param(pedido).update();
    // A row inserted after them: once it is relayed, so would they have been.
    BancoDeTeste.inserirEvento(prefixo + "u3", pedido, "order.shipped", "{}");

    await().atMost(Duration.ofSeconds(20)).until(() -> eventos.comChave(pedido).size() >= 3);
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(3))
        .until(() -> eventos.comChave(pedido).size() == 3 && efeitos.comChave(pedido).size() == 1);
  }

  @Test
  void saudeMetricasETopicos() throws Exception {
    String pedido = prefixo + "ord-4";
    BancoDeTeste.inserirEfeito(pedido, "notificar_reembolso", "reembolsado", 5L, null);
    await().atMost(Duration.ofSeconds(20)).until(() -> !efeitos.comChave(pedido).isEmpty());

    Health saude = relay.bean(PublicadorHealthIndicator.class).health();
    assertThat(saude.getStatus()).isEqualTo(Status.UP);
    assertThat(saude.getDetails())
        .containsEntry("papel", Papel.ATIVO)
        .containsEntry("motor", EstadoDoMotor.TRANSMITINDO)
        .containsEntry("slot", SLOT);

    MeterRegistry metricas = relay.bean(MeterRegistry.class);
    assertThat(
            metricas
                .get("publicador.linhas.publicadas")
                .tags("tabela", "outbox", "via", "cdc")
                .counter()
                .count())
        .isPositive();
    assertThat(metricas.get("publicador.cdc.atraso").timer().count()).isPositive();
    assertThat(metricas.get("publicador.ativo").gauge().value()).isEqualTo(1.0);
    metricas.get("publicador.outbox.pendentes").gauge();
    metricas.get("publicador.outbox.pendente.idade").timeGauge();

    try (Admin admin = Admin.create(kafka)) {
      Map<String, TopicDescription> topicos =
          admin
              .describeTopics(List.of("loja.eventos", "separacao.efeitos", "loja.eventos.DLT"))
              .allTopicNames()
              .get();
      assertThat(topicos.values()).allSatisfy(t -> assertThat(t.partitions()).hasSize(12));
      for (String topico : topicos.keySet()) {
        ConfigResource recurso = new ConfigResource(ConfigResource.Type.TOPIC, topico);
        Config configuracao = admin.describeConfigs(List.of(recurso)).all().get().get(recurso);
        assertThat(configuracao.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value())
            .as(topico)
            .isEqualTo(
                Integer.toString(
                    topico.equals("loja.eventos.DLT")
                        ? EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE
                        : EnvelopeDeEntrada.BYTES_DA_MENSAGEM));
      }
    }
  }

  /**
   * WAL retention stays bounded on a quiet database: while only tables outside the publication are
   * written, the slot's confirmed position still follows the WAL, thanks to the heartbeat's logical
   * message.
   */
  @Test
  void oSlotAvancaComAsTabelasCapturadasQuietas() {
    for (int rodada = 1; rodada <= 3; rodada++) {
      BancoDeTeste.JDBC
          .sql(
              """
              INSERT INTO pedidos (id, status, versao_origem)
              SELECT :prefixo || :rodada || '-' || i, 'criado', 1 FROM generate_series(1, 200) AS i
              """)
          .param("prefixo", prefixo)
          .param("rodada", rodada)
          .update();
      String posicao =
          BancoDeTeste.JDBC.sql("SELECT pg_current_wal_lsn()::text").query(String.class).single();
      await("slot confirmed past " + posicao)
          .atMost(Duration.ofSeconds(15))
          .until(
              () ->
                  BancoDeTeste.JDBC
                      .sql(
                          """
                          SELECT pg_wal_lsn_diff(confirmed_flush_lsn, CAST(? AS pg_lsn)) >= 0
                            FROM pg_replication_slots WHERE slot_name = ?
                          """)
                      .params(posicao, SLOT)
                      .query(Boolean.class)
                      .single());
    }
  }
}
