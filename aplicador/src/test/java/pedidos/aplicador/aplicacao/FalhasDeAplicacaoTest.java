package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import pedidos.aplicador.Assinados;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.TopicoDeDescarte;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.replay.OpcoesDeReplay;
import pedidos.aplicador.replay.Replay;
import pedidos.aplicador.varredura.Varredura;
import pedidos.contrato.EnvelopeDeEntrada;

/**
 * Rows whose apply keeps failing for a reason nobody named. The failure is real and deterministic:
 * a trigger, created by the test, refuses the order rows of this test's "stuck" orders, so every
 * apply of their events fails inside PostgreSQL, as a bug or a broken constraint would.
 */
class FalhasDeAplicacaoTest extends ContextoDoAplicador {

  @Autowired JdbcClient jdbc;
  @Autowired Varredura varredura;
  @Autowired Replay replay;
  @Autowired KafkaTemplate<String, String> kafka;
  @Autowired KafkaAdmin admin;
  @Autowired AplicadorProperties propriedades;
  @Autowired FalhasDeAplicacao falhas;

  private final String p = UUID.randomUUID().toString().substring(0, 8).replace('-', 'x');
  private final String gatilho = "falha_de_teste_" + p;

  @BeforeEach
  void pedidosPresosFalhamNoBanco() {
    // As the administrator: the applier's role cannot create functions or triggers.
    comoAdministrador()
        .sql(
            """
            CREATE FUNCTION %1$s() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NEW.id LIKE '%2$s-preso%%' THEN
                -- A long message, as a failure quoting a payload has: motivo and the DLT's
                -- headers keep their caps.
                RAISE EXCEPTION 'falha de teste em %%: %%', NEW.id, repeat('z', 6000);
              END IF;
              RETURN NEW;
            END $$
            """
                .formatted(gatilho, p))
        .update();
    comoAdministrador()
        .sql(
            "CREATE TRIGGER %1$s BEFORE INSERT OR UPDATE ON pedidos FOR EACH ROW EXECUTE FUNCTION %1$s()"
                .formatted(gatilho))
        .update();
  }

  @AfterEach
  void semGatilho() {
    removerGatilho();
  }

  @Test
  void linhasPresasNaoImpedemUmaMaisNovaEAcabamAssentadasERetentaveisPeloReplay() throws Exception {
    int presos = 250;
    for (int i = 0; i < presos; i++) {
      inserir(p + "-preso-e" + i, p + "-preso" + i, "2 hours");
    }
    inserir(p + "-novo-e", p + "-novo", "1 hour");

    // A round takes 200 rows; under the seed's order (oldest first) both rounds would take stuck
    // rows only, and every later round the same ones again.
    varredura.varrer();
    varredura.varrer();
    assertThat(resultado(p + "-novo-e")).isEqualTo("aplicado");
    assertThat(StatusDoPedido.atual(jdbc, p + "-novo")).isEqualTo("pago");

    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () -> {
              varredura.varrer();
              return contar("resultado = 'falha_de_aplicacao'") == presos;
            });
    assertThat(
            jdbc.sql(
                    "SELECT DISTINCT tentativas FROM webhook_eventos WHERE evento_id LIKE ? AND recurso_id <> ?")
                .params(p + "-preso-e%", p + "-novo")
                .query(Integer.class)
                .list())
        .as("settled after exactly the configured number of unknown failures")
        .containsExactly(propriedades.tentativasDeFalhaDesconhecida());
    assertThat(
            jdbc.sql("SELECT motivo FROM webhook_eventos WHERE evento_id = ?")
                .param(p + "-preso-e0")
                .query(String.class)
                .single())
        .startsWith("org.postgresql.util.PSQLException")
        .contains("falha de teste em " + p + "-preso0")
        .hasSizeLessThanOrEqualTo(FalhasDeAplicacao.CARACTERES_DO_MOTIVO);
    assertThat(contar("aplicado_em IS NULL")).as("none is pending any more").isZero();
    assertThat(varredura.varrer()).as("settled rows are not swept again").isZero();
    assertThat(StatusDoPedido.atual(jdbc, p + "-preso0"))
        .as("a failed apply is not a fact of the order")
        .isNull();

    // The cause is fixed: replay's forced mode applies the settled rows.
    removerGatilho();
    String topico = "replay-" + p;
    admin.createOrModifyTopics(TopicBuilder.name(topico).partitions(1).build());
    for (int i = 0; i < presos; i++) {
      kafka.send(
          Assinados.registro(
              topico, p + "-preso" + i, registro(p + "-preso-e" + i, p + "-preso" + i)));
    }
    kafka.flush();
    var resumo =
        replay.executar(
            new OpcoesDeReplay(topico, List.of(), null, null, null, null),
            new PrintWriter(new StringWriter()));
    assertThat(resumo.aplicados()).isEqualTo(presos);
    assertThat(contar("resultado = 'aplicado' AND motivo IS NULL")).isEqualTo(presos + 1L);
    assertThat(StatusDoPedido.atual(jdbc, p + "-preso0")).isEqualTo("pago");
  }

  @Test
  void falhaTransitoriaAdiaALinhaMasNuncaAAssenta() {
    String evento = p + "-t1";
    inserir(evento, p + "-transitorio", "1 hour");
    var transitoria = new QueryTimeoutException("the database is restarting");

    for (int i = 0; i < 3 * propriedades.tentativasDeFalhaDesconhecida(); i++) {
      assertThat(falhas.registrar(evento, transitoria)).isFalse();
    }

    assertThat(resultado(evento)).isNull();
    assertThat(
            jdbc.sql(
                    """
                    SELECT tentativas = 0 AND proxima_tentativa_em > now() AND aplicado_em IS NULL
                      FROM webhook_eventos WHERE evento_id = ?
                    """)
                .param(evento)
                .query(Boolean.class)
                .single())
        .as("not counted toward settling, only delayed")
        .isTrue();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              varredura.varrer();
              return "aplicado".equals(resultado(evento));
            });
  }

  @Test
  void registroQueFalhaNoOuvinteVaiParaODescarteEAssentaSuaLinha() {
    String pedido = p + "-preso-k";
    kafka.send(Assinados.registro("loja.eventos", pedido, registro(p + "-k1", pedido)));

    ConsumerRecord<String, String> descartado = TopicoDeDescarte.ler(pedido);
    assertThat(TopicoDeDescarte.cabecalho(descartado, "kafka_dlt-exception-message"))
        .contains("falha de teste em " + pedido);
    assertThat(resultado(p + "-k1"))
        .as("the sweep will not try it forever")
        .isEqualTo("falha_de_aplicacao");
    assertThat(
            jdbc.sql("SELECT motivo FROM webhook_eventos WHERE evento_id = ?")
                .param(p + "-k1")
                .query(String.class)
                .single())
        .contains("falha de teste em " + pedido);
  }

  @Test
  void soORegistroQueFalhaNoMeioDeUmaTransacaoDeVariosVaiParaODescarte() {
    String preso = p + "-preso-lote";
    List<String> bons = IntStream.range(0, 20).mapToObj(i -> p + "-lote" + i).toList();
    List<String> enviados = new ArrayList<>(bons.subList(0, 10));
    enviados.add(preso);
    enviados.addAll(bons.subList(10, 20));
    // All in one partition, so that a poll brings them together, the stuck one in the middle.
    for (String pedido : enviados) {
      var assinado = Assinados.registro("loja.eventos", pedido, registro(pedido + "-e", pedido));
      kafka.send(
          new ProducerRecord<>(
              assinado.topic(), 0, assinado.key(), assinado.value(), assinado.headers()));
    }
    kafka.flush();

    ConsumerRecord<String, String> descartado = TopicoDeDescarte.ler(preso);
    assertThat(TopicoDeDescarte.cabecalho(descartado, "kafka_dlt-exception-message"))
        .contains("falha de teste em " + preso);
    assertThat(TopicoDeDescarte.cabecalho(descartado, "kafka_dlt-exception-cause-fqcn"))
        .as("the cause, not the batch's report of it")
        .doesNotContain("BatchListenerFailedException");
    assertThat(resultado(preso + "-e")).isEqualTo("falha_de_aplicacao");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        jdbc.sql(
                                """
                                SELECT count(*) FROM webhook_eventos
                                 WHERE recurso_id = ANY (?) AND resultado = 'aplicado'
                                   AND kafka_offset IS NOT NULL
                                """)
                            .param(bons.toArray(String[]::new))
                            .query(Long.class)
                            .single())
                    .as("the records before and after it, applied by the listener")
                    .isEqualTo(bons.size()));
    assertThat(StatusDoPedido.atual(jdbc, bons.get(19))).isEqualTo("pago");
  }

  @Test
  void registroDoTamanhoDoEnvelopeCabeNoDescarteComOsCabecalhosDaFalha() {
    String pedido = p + "-preso-grande";
    String payload =
        """
        {"id": "%s", "type": "order.paid", "sequence": 2, "occurred_at": "2026-11-30T10:00:00Z",
         "data": {"id": "%s"}, "texto": "%s"}
        """
            .formatted(p + "-g1", pedido, "x".repeat(EnvelopeDeEntrada.BYTES_NO_JSONB - 1_000));
    String valor =
        """
        {"evento_id": "%s", "recurso_id": "%s", "tipo": "order.paid", "payload": %s}
        """
            .formatted(p + "-g1", pedido, payload);
    assertThat(valor.length())
        .as("twice the clients' default max.request.size")
        .isGreaterThan(2_000_000);
    kafka.send(Assinados.registro("loja.eventos", pedido, valor));

    ConsumerRecord<String, String> descartado = TopicoDeDescarte.ler(pedido);
    assertThat(descartado.value()).isEqualTo(valor);
    assertThat(TopicoDeDescarte.cabecalho(descartado, "kafka_dlt-exception-stacktrace"))
        .contains("falha de teste em " + pedido);
    // Capped (CabecalhosDaFalhaTest): within the margin the relay sizes the dead-letter topic with.
    int bytesDosCabecalhos = 0;
    for (Header cabecalho : descartado.headers()) {
      bytesDosCabecalhos += cabecalho.key().length() + cabecalho.value().length;
    }
    assertThat(bytesDosCabecalhos).isLessThanOrEqualTo(EnvelopeDeEntrada.MARGEM_DO_DESCARTE);
    assertThat(resultado(p + "-g1")).isEqualTo("falha_de_aplicacao");
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void aFalhaNaVarreduraLevaOEventoComoCampoDoLog(CapturedOutput saida) {
    String eventoId = p + "-preso-campo";
    inserir(eventoId, p + "-preso-campo", "2 hours");

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              varredura.varrer();
              return saida.getOut().contains(eventoId + " could not be applied by the sweep");
            });
    assertThat(saida.getOut().lines())
        .filteredOn(linha -> linha.contains(eventoId + " could not be applied by the sweep"))
        .first()
        .asString()
        .contains("ERROR [evento_id=" + eventoId + " ");
  }

  private void inserir(String eventoId, String pedido, String idade) {
    jdbc.sql(
            """
            INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
            VALUES (?, ?, 'order.paid', ?::jsonb, now() - CAST(? AS interval))
            """)
        .params(eventoId, pedido, payload(eventoId, pedido), idade)
        .update();
  }

  private void removerGatilho() {
    comoAdministrador().sql("DROP TRIGGER IF EXISTS %1$s ON pedidos".formatted(gatilho)).update();
    comoAdministrador().sql("DROP FUNCTION IF EXISTS %1$s()".formatted(gatilho)).update();
  }

  private long contar(String condicao) {
    return jdbc.sql("SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ? AND " + condicao)
        .param(p + "-%")
        .query(Long.class)
        .single();
  }

  private String resultado(String eventoId) {
    return jdbc.sql("SELECT resultado FROM webhook_eventos WHERE evento_id = ?")
        .param(eventoId)
        .query(String.class)
        .optional()
        .orElse(null);
  }

  private static String registro(String eventoId, String pedido) {
    return """
        {"evento_id": "%s", "recurso_id": "%s", "tipo": "order.paid", "payload": %s,
         "recebido_em": "2026-11-30T10:00:00.123456Z"}
        """
        .formatted(eventoId, pedido, payload(eventoId, pedido));
  }

  private static String payload(String eventoId, String pedido) {
    return """
        {"id": "%s", "type": "order.paid", "sequence": 2, "occurred_at": "2026-11-30T10:00:00Z",
         "data": {"id": "%s", "total_cents": 1990, "customer_email": "a@loja"}}
        """
        .formatted(eventoId, pedido);
  }
}
