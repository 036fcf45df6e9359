package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.health.contributor.Health;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.publicador.linhas.ChaveDoEfeito;
import pedidos.publicador.linhas.FormatoDasMensagens;
import pedidos.testes.InfraDeTeste;

/**
 * Issue 11: a row the relay cannot publish (written straight into its table, around the receptor)
 * is dead-lettered with its coordinates and reason, the engine never stops for it, the rows after
 * it arrive at once, and {@code republicar-mortos} publishes it once the cause is gone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MortosTest {

  private static final String SLOT = "teste_mortos";

  private final String prefixo = "m" + UUID.randomUUID().toString().substring(0, 7) + "-";
  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();
  private RelayDeTeste relay;
  private LeitorDeTopico eventos;
  private LeitorDeTopico efeitos;

  @BeforeAll
  void iniciar() {
    // The fallback stays out of the way (RelayDeTeste: one hour): rows after a poison one must
    // arrive through the stream.
    relay = RelayDeTeste.iniciar(SLOT, "mor").aguardarTransmitindo();
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
  void eventoComNumeroForaDoEnvelopeVaiParaOsMortosEOFluxoSegue() {
    int falhasAntes = relay.situacao().falhas();
    String posicaoAntes = posicaoDoWal();
    String veneno = prefixo + "v1";
    String pedido = prefixo + "ord-v";
    String pedidoDepois = prefixo + "ord-depois";
    // Valid JSON, and PostgreSQL keeps it: as jsonb text the number is 1,001 digits long.
    BancoDeTeste.inserirEvento(
        veneno, pedido, "order.paid", "{\"id\": \"v1\", \"data\": {\"x\": 1e1000}}");
    BancoDeTeste.inserirEvento(prefixo + "depois", pedidoDepois, "order.paid", "{}");

    await().atMost(Duration.ofSeconds(20)).until(() -> !eventos.comChave(pedidoDepois).isEmpty());
    Map<String, Object> morto =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> morto("webhook_eventos", FormatoDasMensagens.chaveDoEvento(veneno)),
                m -> m != null);
    assertThat(morto.get("motivo").toString()).contains("StreamConstraintsException");
    assertThat(morto.get("lsn")).as("the row's WAL position").isNotNull();
    assertThat(depoisDe(morto.get("lsn").toString(), posicaoAntes)).isTrue();
    assertThat(morto.get("republicado_em")).isNull();
    assertThat(eventos.comChave(pedido)).isEmpty();
    assertThat(relay.situacao().falhas()).as("the engine never stopped").isEqualTo(falhasAntes);

    Health saude = relay.bean(PublicadorHealthIndicator.class).health();
    assertThat((Long) saude.getDetails().get("mortos")).isPositive();
    assertThat(saude.getDetails().get("ultimoMorto").toString())
        .contains("webhook_eventos")
        .contains(veneno)
        .as("coordinates only: the reason, which may quote the row, stays in the table")
        .doesNotContain("StreamConstraintsException");
    MeterRegistry metricas = relay.bean(MeterRegistry.class);
    assertThat(
            metricas
                .get("publicador.linhas.mortas")
                .tags("tabela", "webhook_eventos", "via", "cdc")
                .counter()
                .count())
        .isPositive();
    // Refreshed from the table every publicador.reenvio.intervalo (1 s here).
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> metricas.get("publicador.mortos.abertos").gauge().value() >= 1);

    // Re-published while the cause is still there: it stays dead-lettered, with the new attempt.
    assertThat(PublicadorApplication.republicarMortos(argumentos())).isEqualTo(1);
    Map<String, Object> denovo =
        morto("webhook_eventos", FormatoDasMensagens.chaveDoEvento(veneno));
    assertThat(denovo.get("republicado_em")).isNull();
    assertThat(((Number) denovo.get("tentativas")).intValue()).isEqualTo(2);
    assertThat(denovo.get("lsn")).as("the WAL position is kept").isEqualTo(morto.get("lsn"));

    // The cause fixed, it reaches Kafka and the dead letter is closed.
    BancoDeTeste.JDBC
        .sql(
            "UPDATE webhook_eventos SET payload = '{\"id\": \"v1\", \"data\": {\"x\": 1}}'"
                + " WHERE evento_id = ?")
        .param(veneno)
        .update();
    PublicadorApplication.republicarMortos(argumentos());
    ConsumerRecord<String, String> registro =
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> eventos.comChave(pedido), l -> !l.isEmpty())
            .get(0);
    assertThat(LeitorDeTopico.valor(registro).path("evento_id").asString()).isEqualTo(veneno);
    assertThat(LeitorDeTopico.valor(registro).path("payload").path("data").path("x").asInt())
        .isEqualTo(1);
    assertThat(morto("webhook_eventos", FormatoDasMensagens.chaveDoEvento(veneno)))
        .extracting(m -> m.get("republicado_em"))
        .isNotNull();
  }

  @Test
  void umTopicoPequenoDemaisParaOEnvelopeNaoMataALinhaORelayOAumenta() throws Exception {
    // A topic with the broker's default size, as one auto-created after Kafka lost its data.
    try (Admin admin = Admin.create(kafka)) {
      admin
          .incrementalAlterConfigs(
              Map.of(
                  new ConfigResource(ConfigResource.Type.TOPIC, "separacao.efeitos"),
                  List.of(
                      new AlterConfigOp(
                          new ConfigEntry("max.message.bytes", String.valueOf(1 << 20)),
                          AlterConfigOp.OpType.SET))))
          .all()
          .get();
    }
    int falhasAntes = relay.situacao().falhas();
    // 1.5 MB of status (the published effect carries no email): inside the envelope's record
    // size, above the shrunken topic's.
    ChaveDoEfeito grande = new ChaveDoEfeito(prefixo + "ord-g", "liberar_separacao");
    BancoDeTeste.inserirEfeito(
        grande.pedidoId(), grande.efeito(), "g".repeat(3 << 19), 5L, "g@loja");

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> !efeitos.comChave(grande.pedidoId()).isEmpty());
    assertThat(morto("outbox", grande.json())).as("not the row's fault").isNull();
    assertThat(relay.situacao().falhas())
        .as("the relay stopped and its restart raised the topic")
        .isGreaterThan(falhasAntes);
  }

  @Test
  void efeitosQueOKafkaRecusaVaoParaOsMortosEOFluxoSegue() {
    int falhasAntes = relay.situacao().falhas();
    // 3 MiB: the relay reads the row (its columns arrive as they are, not through a JSON parser),
    // and the producer refuses the record before it leaves.
    ChaveDoEfeito enorme = new ChaveDoEfeito(prefixo + "ord-i", "liberar_separacao");
    // Two-byte characters: 1.5 Mi of them, above the producer's max.request.size in bytes only.
    ChaveDoEfeito noProdutor = new ChaveDoEfeito(prefixo + "ord-p", "liberar_separacao");
    // Under the producer's limit, above the topic's max.message.bytes: refused by the broker.
    ChaveDoEfeito noBroker = new ChaveDoEfeito(prefixo + "ord-b", "liberar_separacao");
    ChaveDoEfeito depois = new ChaveDoEfeito(prefixo + "ord-ok", "liberar_separacao");
    // The oversized value is the status: the published effect carries no email.
    BancoDeTeste.inserirEfeito(
        enorme.pedidoId(), enorme.efeito(), "a".repeat(3 << 20), 1L, "i@loja");
    BancoDeTeste.inserirEfeito(
        noProdutor.pedidoId(), noProdutor.efeito(), "\u00e7".repeat(3 << 19), 2L, "p@loja");
    BancoDeTeste.inserirEfeito(
        noBroker.pedidoId(),
        noBroker.efeito(),
        "\u00e7".repeat((EnvelopeDeEntrada.BYTES_DA_MENSAGEM + 4096) / 2),
        3L,
        "b@loja");
    BancoDeTeste.inserirEfeito(depois.pedidoId(), depois.efeito(), "pago", 4L, "c@loja");

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> !efeitos.comChave(depois.pedidoId()).isEmpty());
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> BancoDeTeste.naoEnviados(depois.pedidoId()) == 0);
    Map<ChaveDoEfeito, String> motivos =
        Map.of(
            enorme, "max.request.size",
            noProdutor, "max.request.size",
            noBroker, "larger than the max message size the server will accept");
    motivos.forEach(
        (veneno, motivo) -> {
          Map<String, Object> morto = morto("outbox", veneno.json());
          assertThat(morto).as(veneno.pedidoId()).isNotNull();
          assertThat(morto.get("motivo").toString()).contains(motivo);
          assertThat(morto.get("lsn")).isNotNull();
          assertThat(BancoDeTeste.naoEnviados(veneno.pedidoId())).isEqualTo(1);
          assertThat(efeitos.comChave(veneno.pedidoId())).isEmpty();
        });
    assertThat(relay.situacao().falhas()).as("the engine never stopped").isEqualTo(falhasAntes);
    BancoDeTeste.JDBC
        .sql("UPDATE outbox SET status = 'pago' WHERE pedido_id IN (?, ?, ?)")
        .params(enorme.pedidoId(), noProdutor.pedidoId(), noBroker.pedidoId())
        .update();
    PublicadorApplication.republicarMortos(argumentos());
    for (ChaveDoEfeito veneno : motivos.keySet()) {
      ConsumerRecord<String, String> registro =
          await()
              .atMost(Duration.ofSeconds(20))
              .until(() -> efeitos.comChave(veneno.pedidoId()), l -> !l.isEmpty())
              .get(0);
      assertThat(LeitorDeTopico.cabecalho(registro, "idempotency-key"))
          .isEqualTo(veneno.idempotencia());
      assertThat(LeitorDeTopico.assinado(registro)).as("re-published records are signed").isTrue();
      assertThat(LeitorDeTopico.valor(registro).path("status").asString()).isEqualTo("pago");
      assertThat(LeitorDeTopico.valor(registro).has("cliente_email")).isFalse();
      assertThat(BancoDeTeste.naoEnviados(veneno.pedidoId())).isZero();
      assertThat(morto("outbox", veneno.json()).get("republicado_em")).isNotNull();
    }
  }

  @Test
  void oRelayRepublicaSoAsCartasQueUmOperadorPediu() {
    // Refused by the producer (above max.request.size), as in the test above.
    ChaveDoEfeito pedida = new ChaveDoEfeito(prefixo + "ord-pedida", "liberar_separacao");
    ChaveDoEfeito naoPedida = new ChaveDoEfeito(prefixo + "ord-nao-pedida", "liberar_separacao");
    String grande = "\u00e7".repeat(3 << 19);
    BancoDeTeste.inserirEfeito(pedida.pedidoId(), pedida.efeito(), grande, 1L, "p@loja");
    BancoDeTeste.inserirEfeito(naoPedida.pedidoId(), naoPedida.efeito(), grande, 2L, "n@loja");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                morto("outbox", pedida.json()) != null
                    && morto("outbox", naoPedida.json()) != null);
    // Asked while the cause is still there: the active relay's next fallback round (every second
    // here) tries it once, answers the request, and the letter stays open with the new attempt.
    pedir(pedida);
    await().atMost(Duration.ofSeconds(20)).until(() -> !pedido(pedida));
    assertThat(((Number) morto("outbox", pedida.json()).get("tentativas")).intValue())
        .isGreaterThanOrEqualTo(2);
    assertThat(morto("outbox", pedida.json()).get("republicado_em")).isNull();

    // The cause fixed and asked again (as the applier's page does): published and closed.
    BancoDeTeste.JDBC
        .sql("UPDATE outbox SET status = 'pago' WHERE pedido_id IN (?, ?)")
        .params(pedida.pedidoId(), naoPedida.pedidoId())
        .update();
    pedir(pedida);

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> !efeitos.comChave(pedida.pedidoId()).isEmpty());
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> morto("outbox", pedida.json()).get("republicado_em") != null);
    assertThat(BancoDeTeste.naoEnviados(pedida.pedidoId())).isZero();
    assertThat(morto("outbox", naoPedida.json()).get("republicado_em"))
        .as("a letter nobody asked for waits for republicar-mortos")
        .isNull();
    assertThat(efeitos.comChave(naoPedida.pedidoId())).isEmpty();
  }

  /** What the applier's status page does (V13 grants it nothing else on this table). */
  private static void pedir(ChaveDoEfeito efeito) {
    BancoDeTeste.JDBC
        .sql(
            "UPDATE publicador_mortos SET republicacao_pedida_em = now()"
                + " WHERE tabela = 'outbox' AND chave = CAST(? AS jsonb) AND republicado_em IS NULL")
        .param(efeito.json())
        .update();
  }

  private static boolean pedido(ChaveDoEfeito efeito) {
    return BancoDeTeste.JDBC
        .sql(
            "SELECT republicacao_pedida_em IS NOT NULL FROM publicador_mortos"
                + " WHERE tabela = 'outbox' AND chave = CAST(? AS jsonb) AND republicado_em IS NULL")
        .param(efeito.json())
        .query(Boolean.class)
        .single();
  }

  private List<String> argumentos() {
    List<String> argumentos = new ArrayList<>();
    RelayDeTeste.propriedades(SLOT, "mor-cmd")
        .forEach((chave, valor) -> argumentos.add("--" + chave + "=" + valor));
    return argumentos;
  }

  /** The latest dead letter of a row, or null. */
  static Map<String, Object> morto(String tabela, String chave) {
    return BancoDeTeste.JDBC
        .sql(
            """
            SELECT lsn::text AS lsn, motivo, tentativas, republicado_em
              FROM publicador_mortos WHERE tabela = ? AND chave = CAST(? AS jsonb)
             ORDER BY id DESC LIMIT 1
            """)
        .params(tabela, chave)
        .query()
        .listOfRows()
        .stream()
        .findFirst()
        .orElse(null);
  }

  private static String posicaoDoWal() {
    return BancoDeTeste.JDBC.sql("SELECT pg_current_wal_lsn()::text").query(String.class).single();
  }

  private static boolean depoisDe(String lsn, String posicao) {
    return BancoDeTeste.JDBC
        .sql("SELECT CAST(? AS pg_lsn) >= CAST(? AS pg_lsn)")
        .params(lsn, posicao)
        .query(Boolean.class)
        .single();
  }
}
