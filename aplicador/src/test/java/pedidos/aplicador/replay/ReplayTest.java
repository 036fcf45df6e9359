package pedidos.aplicador.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.core.KafkaTemplate;
import pedidos.aplicador.Assinados;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.aplicador.LinhaDeComandoDeTeste;

/** Replay after a restore from an old backup: the state comes back, identical, and stays so. */
@Tag("todas-as-versoes-do-postgres")
class ReplayTest extends ContextoDoAplicador {

  private static final String[] TIPOS = {
    "order.created", "order.paid", "order.shipped", "order.canceled", "order.refunded"
  };

  @Autowired KafkaTemplate<String, String> kafka;
  @Autowired JdbcClient jdbc;
  @Autowired Replay replay;

  /** The whole of the topic the applier reads. */
  private static final OpcoesDeReplay TUDO =
      new OpcoesDeReplay(null, List.of(), null, null, null, null);

  private final String p = UUID.randomUUID().toString().substring(0, 8) + "-";

  @Test
  void replayDepoisDeUmRestoreDevolveOEstadoIdenticoESemEfeitosDuplicados() throws Exception {
    Random random = new Random(7);
    int eventos = 0;
    for (int pedido = 0; pedido < 40; pedido++) {
      String id = p + "ord" + pedido;
      for (int fato = 0; fato < 1 + random.nextInt(4); fato++) {
        String tipo = TIPOS[random.nextInt(TIPOS.length)];
        kafka.send(
            Assinados.registro(
                "loja.eventos", id, registro(id + "-e" + fato, id, tipo, random.nextInt(6))));
        eventos++;
      }
    }
    kafka.flush();
    int esperados = eventos;
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                contar(
                        "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ? AND aplicado_em IS NOT NULL")
                    == esperados);
    var pedidosAntes = pedidos();
    var inboxAntes = inbox();
    var outboxAntes = outbox();

    // a restore from an old backup: a slice of the orders and their facts are gone
    JdbcClient administrador = comoAdministrador();
    administrador
        .sql("DELETE FROM webhook_eventos WHERE recurso_id LIKE ?")
        .param(p + "ord1%")
        .update();
    administrador.sql("DELETE FROM pedidos WHERE id LIKE ?").param(p + "ord1%").update();
    assertThat(pedidos()).isNotEqualTo(pedidosAntes);

    ResumoDoReplay resumo = replay.executar(TUDO, silencio());

    assertThat(resumo.restaurados()).isPositive();
    assertThat(pedidos()).isEqualTo(pedidosAntes);
    assertThat(inbox()).isEqualTo(inboxAntes);
    assertThat(outbox()).isEqualTo(outboxAntes);

    ResumoDoReplay deNovo = replay.executar(TUDO, silencio());
    assertThat(deNovo.restaurados()).as("replaying again restores nothing").isZero();
    assertThat(pedidos()).isEqualTo(pedidosAntes);
    assertThat(outbox()).isEqualTo(outboxAntes);
  }

  @Test
  void faixaPorInstanteEPorOffset() throws Exception {
    String id = p + "faixa";
    kafka
        .send(Assinados.registro("loja.eventos", id, registro(id + "-e0", id, "order.paid", 1)))
        .get();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> contar("SELECT count(*) FROM pedidos WHERE id LIKE ?") == 1);

    var nadaDepois =
        replay.executar(
            new OpcoesDeReplay(null, List.of(), null, Instant.now().plusSeconds(3600), null, null),
            silencio());
    assertThat(nadaDepois.lidos()).isZero();

    var umaParticao =
        replay.executar(new OpcoesDeReplay(null, List.of(0), null, null, -1L, null), silencio());
    assertThat(umaParticao.lidos()).isZero();

    assertThatThrownBy(() -> new OpcoesDeReplay(null, List.of(), 1L, Instant.now(), null, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** As an operator runs it: the service's context without its listener, the options typed. */
  @Test
  void peloComandoComOContextoDoServicoSemOuvinte() {
    // Left to Spring Boot, closing that context would shut logging down for the JVM's others.
    System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
    try {
      var execucao =
          LinhaDeComandoDeTeste.executar(
              Map.of(),
              "replay",
              "--particao=0",
              "--particao=1",
              "--de-instante=" + Instant.now().plusSeconds(3600));

      assertThat(execucao.codigo()).as(execucao.erro()).isZero();
      assertThat(execucao.saida())
          .contains("replaying loja.eventos: 0:[", " 1:[")
          .doesNotContain(" 2:[")
          .contains(
              "replay done: read 0, restored 0, applied 0, unapplicable 0,"
                  + " unsigned or wrongly signed 0");
    } finally {
      System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
    }
  }

  private static PrintWriter silencio() {
    return new PrintWriter(new StringWriter());
  }

  private long contar(String sql) {
    return jdbc.sql(sql).param(p + "%").query(Long.class).single();
  }

  private List<Map<String, Object>> pedidos() {
    return jdbc.sql(
            "SELECT id, status, versao_origem, total_centavos, cliente_email FROM pedidos"
                + " WHERE id LIKE ? ORDER BY id")
        .param(p + "%")
        .query()
        .listOfRows();
  }

  private List<Map<String, Object>> inbox() {
    return jdbc.sql(
            "SELECT evento_id, recurso_id, tipo, payload::text, resultado, motivo FROM webhook_eventos"
                + " WHERE recurso_id LIKE ? ORDER BY evento_id")
        .param(p + "%")
        .query()
        .listOfRows();
  }

  private List<Map<String, Object>> outbox() {
    return jdbc.sql(
            "SELECT pedido_id, efeito, status, total_centavos, cliente_email FROM outbox"
                + " WHERE pedido_id LIKE ? ORDER BY pedido_id, efeito")
        .param(p + "%")
        .query()
        .listOfRows();
  }

  private static String registro(String eventoId, String pedido, String tipo, int sequencia) {
    return """
        {"evento_id": "%1$s", "recurso_id": "%2$s", "tipo": "%3$s",
         "payload": {"id": "%1$s", "type": "%3$s", "sequence": %4$d,
                     "data": {"id": "%2$s", "total_cents": %5$d}},
         "recebido_em": "2026-11-30T10:00:00Z"}
        """
        .formatted(eventoId, pedido, tipo, sequencia, 100 * sequencia);
  }
}
