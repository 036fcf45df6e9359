package pedidos.aplicador.ouvinte;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BatchListenerFailedException;
import pedidos.aplicador.Assinados;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.TopicoDeDescarte;
import pedidos.aplicador.varredura.Varredura;

/** The listener and the sweep against the real Kafka and PostgreSQL. */
@Tag("todas-as-versoes-do-postgres")
class OuvinteDeEventosTest extends ContextoDoAplicador {

  @Autowired KafkaTemplate<String, String> kafka;
  @Autowired JdbcClient jdbc;
  @Autowired DataSource dataSource;
  @Autowired Varredura varredura;
  @Autowired OuvinteDeEventos ouvinte;

  private final String prefixo = UUID.randomUUID().toString().substring(0, 8) + "-";

  @Test
  void registroDoTopicoEGuardadoNaCaixaDeEntradaEAplicado() throws Exception {
    String pedido = prefixo + "ord";
    var enviado =
        kafka
            .send(
                Assinados.registro(
                    "loja.eventos", pedido, registro(prefixo + "e1", pedido, "order.paid", 3)))
            .get();

    StatusDoPedido.aguardar(jdbc, pedido, "pago", Duration.ofSeconds(30));
    assertThat(
            jdbc.sql("SELECT resultado FROM webhook_eventos WHERE evento_id = ?")
                .param(prefixo + "e1")
                .query(String.class)
                .single())
        .isEqualTo("aplicado");
    assertThat(
            jdbc.sql(
                    "SELECT kafka_particao || '@' || kafka_offset FROM webhook_eventos"
                        + " WHERE evento_id = ?")
                .param(prefixo + "e1")
                .query(String.class)
                .single())
        .as("where the record was read, for the order's page")
        .isEqualTo(
            enviado.getRecordMetadata().partition() + "@" + enviado.getRecordMetadata().offset());
    assertThat(
            jdbc.sql("SELECT count(*) FROM outbox WHERE pedido_id = ?")
                .param(pedido)
                .query(Long.class)
                .single())
        .isEqualTo(1L);
  }

  @Test
  void registroInaplicavelVaiParaODescarteComOMotivo() throws Exception {
    String chave = prefixo + "lixo";
    kafka.send(Assinados.registro("loja.eventos", chave, "isto nao e json")).get();
    kafka
        .send(Assinados.registro("loja.eventos", chave, "{\"recurso_id\": \"x\", \"payload\": {}}"))
        .get();

    List<ConsumerRecord<String, String>> descartados = TopicoDeDescarte.ler(chave, 2);

    assertThat(descartados)
        .extracting(TopicoDeDescarte::motivo)
        .anySatisfy(m -> assertThat(m).contains("registro nao e JSON"))
        .anySatisfy(m -> assertThat(m).contains("evento_id ausente"));
  }

  @Test
  void falhaTransitoriaERetentadaSemPularORegistro() throws Exception {
    String pedido = prefixo + "ord";
    try (Connection conexao = dataSource.getConnection()) {
      conexao.setAutoCommit(false);
      try (PreparedStatement lock =
          conexao.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
        lock.setString(1, pedido);
        lock.execute();
      }
      kafka
          .send(
              Assinados.registro(
                  "loja.eventos", pedido, registro(prefixo + "e1", pedido, "order.paid", 1)))
          .get();

      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(5))
          .until(() -> StatusDoPedido.atual(jdbc, pedido) == null);
      conexao.rollback();
    }
    StatusDoPedido.aguardar(jdbc, pedido, "pago", Duration.ofSeconds(30));
  }

  /**
   * A poll's sub-batch whose third order is held by another session past the wait: the sub-batch
   * fails together, is rolled back, and is applied again one record per transaction, so the two
   * records before the third are committed and the failure names the third record itself, for the
   * error handler to retry it alone; nothing after it is applied.
   */
  @Test
  void falhaNoMeioDoLoteCaiParaUmRegistroPorTransacaoENomeiaOQueFalhou() throws Exception {
    List<ConsumerRecord<String, String>> lote = lote("lote");
    BatchListenerFailedException falha;
    try (Connection conexao = dataSource.getConnection()) {
      conexao.setAutoCommit(false);
      try (PreparedStatement lock =
          conexao.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
        lock.setString(1, prefixo + "lote2");
        lock.execute();
      }
      falha = catchThrowableOfType(BatchListenerFailedException.class, () -> ouvinte.receber(lote));
      conexao.rollback();
    }

    soOsDoisPrimeirosAplicados(lote, "lote", falha);
    assertThat(
            jdbc.sql(
                    "SELECT kafka_particao || '@' || kafka_offset FROM webhook_eventos"
                        + " WHERE evento_id = ?")
                .param(prefixo + "lote-e1")
                .query(String.class)
                .single())
        .isEqualTo("0@101");
  }

  /**
   * The same poll, failing instead where the sub-batch writes: PostgreSQL refuses the third order's
   * row (a trigger of the test's own), so the one statement that writes every order of the
   * sub-batch fails and the whole sub-batch rolls back. It is applied again one record per
   * transaction, with the same outcome as a failure to lock. A sequence, which a rollback does not
   * undo, counts the refusals: one in the sub-batch's statement, one alone.
   */
  @Test
  void falhaNaEscritaDoLoteCaiParaUmRegistroPorTransacaoENomeiaOQueFalhou() throws Exception {
    List<ConsumerRecord<String, String>> lote = lote("escrita");
    String gatilho = "recusa_" + prefixo.replace("-", "");
    var administrador = comoAdministrador();
    administrador.sql("CREATE SEQUENCE %s".formatted(gatilho)).update();
    administrador
        .sql(
            """
            CREATE FUNCTION %1$s() RETURNS trigger LANGUAGE plpgsql
              SECURITY DEFINER -- the sequence is the administrator's, not the applier's
              AS $$
            BEGIN
              IF NEW.id = '%2$s' THEN
                PERFORM nextval('%1$s');
                RAISE EXCEPTION 'escrita recusada pelo teste: %%', NEW.id;
              END IF;
              RETURN NEW;
            END $$
            """
                .formatted(gatilho, prefixo + "escrita2"))
        .update();
    BatchListenerFailedException falha;
    long recusas;
    try {
      administrador
          .sql(
              "CREATE TRIGGER %1$s BEFORE INSERT OR UPDATE ON pedidos FOR EACH ROW EXECUTE FUNCTION %1$s()"
                  .formatted(gatilho))
          .update();
      falha = catchThrowableOfType(BatchListenerFailedException.class, () -> ouvinte.receber(lote));
      recusas =
          administrador
              .sql(
                  "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM %s"
                      .formatted(gatilho))
              .query(Long.class)
              .single();
    } finally {
      administrador.sql("DROP TRIGGER IF EXISTS %1$s ON pedidos".formatted(gatilho)).update();
      administrador.sql("DROP FUNCTION %1$s()".formatted(gatilho)).update();
      administrador.sql("DROP SEQUENCE %s".formatted(gatilho)).update();
    }

    assertThat(recusas).as("refused in the sub-batch's write, then alone").isEqualTo(2);
    soOsDoisPrimeirosAplicados(lote, "escrita", falha);
    assertThat(falha)
        .rootCause()
        .hasMessageContaining("escrita recusada pelo teste: " + prefixo + "escrita2");
  }

  /** Five orders' first events, one per order, as one poll of partition 0 brings them. */
  private List<ConsumerRecord<String, String>> lote(String nome) {
    List<ConsumerRecord<String, String>> lote = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String pedido = prefixo + nome + i;
      ProducerRecord<String, String> assinado =
          Assinados.registro(
              "loja.eventos", pedido, registro(prefixo + nome + "-e" + i, pedido, "order.paid", 1));
      lote.add(
          new ConsumerRecord<>(
              assinado.topic(),
              0,
              100 + i,
              0L,
              TimestampType.CREATE_TIME,
              -1,
              -1,
              assinado.key(),
              assinado.value(),
              assinado.headers(),
              Optional.empty()));
    }
    return lote;
  }

  /** The third record failed, named; the two before it committed, nothing after it applied. */
  private void soOsDoisPrimeirosAplicados(
      List<ConsumerRecord<String, String>> lote, String nome, BatchListenerFailedException falha) {
    assertThat(falha).as("the failure is thrown, naming a record").isNotNull();
    assertThat(falha.getRecord()).as("the record that failed").isSameAs(lote.get(2));
    assertThat(StatusDoPedido.atual(jdbc, prefixo + nome + "0")).isEqualTo("pago");
    assertThat(StatusDoPedido.atual(jdbc, prefixo + nome + "1")).isEqualTo("pago");
    for (int i = 2; i < 5; i++) {
      assertThat(StatusDoPedido.atual(jdbc, prefixo + nome + i)).as(nome + i).isNull();
    }
  }

  @Test
  void varreduraAplicaPendentesSemKafkaEDuasVarredurasNaoSeAtrapalham() throws Exception {
    int quantos = 60;
    for (int i = 0; i < quantos; i++) {
      String pedido = prefixo + "p" + (i % 20);
      jdbc.sql(
              """
              INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
              VALUES (?, ?, ?, ?::jsonb, now() - interval '1 hour')
              """)
          .params(
              prefixo + "v" + i,
              pedido,
              "order.paid",
              registroPayload(prefixo + "v" + i, pedido, "order.paid", i))
          .update();
    }

    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<Integer>> rodadas = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        rodadas.add(
            threads.submit(
                () -> {
                  int total = 0;
                  for (int rodada = 0; rodada < 5; rodada++) {
                    total += varredura.varrer();
                  }
                  return total;
                }));
      }
      int aplicados = 0;
      for (Future<Integer> rodada : rodadas) {
        aplicados += rodada.get(1, TimeUnit.MINUTES);
      }
      assertThat(aplicados).as("each event applied exactly once").isEqualTo(quantos);
    } finally {
      threads.shutdownNow();
    }
    assertThat(
            jdbc.sql(
                    "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ? AND aplicado_em IS NULL")
                .param(prefixo + "v%")
                .query(Long.class)
                .single())
        .isZero();
    assertThat(StatusDoPedido.atual(jdbc, prefixo + "p0")).isEqualTo("pago");
  }

  private static String registro(String eventoId, String pedido, String tipo, int sequencia) {
    return """
        {"evento_id": "%s", "recurso_id": "%s", "tipo": "%s", "payload": %s,
         "recebido_em": "2026-11-30T10:00:00.123456Z"}
        """
        .formatted(eventoId, pedido, tipo, registroPayload(eventoId, pedido, tipo, sequencia));
  }

  private static String registroPayload(
      String eventoId, String pedido, String tipo, int sequencia) {
    return """
        {"id": "%s", "type": "%s", "sequence": %d, "occurred_at": "2026-11-30T10:00:00Z",
         "data": {"id": "%s", "total_cents": 1990, "customer_email": "a@loja"}}
        """
        .formatted(eventoId, tipo, sequencia, pedido);
  }
}
