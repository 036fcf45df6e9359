package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.testes.InfraDeTeste;

/**
 * Zero loss across restarts in the middle of a stream of multi-row transactions: an orderly stop
 * and start of the engine, the database killing the engine's replication connection, then every
 * connection of the relay, and the whole relay closed and started again. Duplicates are allowed;
 * gaps are not.
 */
class ReinicioTest {

  private static final Logger log = LoggerFactory.getLogger(ReinicioTest.class);
  private static final String SLOT = "teste_reinicio";

  private final String prefixo = "r" + UUID.randomUUID().toString().substring(0, 6) + "-";
  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();

  @Test
  void nadaSePerdeQuandoORelayReiniciaNoMeioDoFluxo() throws Exception {
    RelayDeTeste relay = RelayDeTeste.iniciar(SLOT, "rein").aguardarTransmitindo();
    try (LeitorDeTopico eventos = LeitorDeTopico.novos(kafka, "loja.eventos");
        LeitorDeTopico efeitos = LeitorDeTopico.novos(kafka, "separacao.efeitos");
        EscritorDeLotes escritor = new EscritorDeLotes(prefixo, 10, 2, 40)) {

      aguardarProgresso(eventos, escritor, prefixo);
      relay.supervisor().stop();
      relay.supervisor().start();
      relay.aguardarTransmitindo();
      aguardarProgresso(eventos, escritor, prefixo);

      // A crash as the database sees it: the replication connection drops mid-stream.
      BancoDeTeste.JDBC
          .sql(
              "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots"
                  + " WHERE slot_name = ? AND active")
          .param(SLOT)
          .query((rs, n) -> 1)
          .list();
      aguardarProgresso(eventos, escritor, prefixo);

      // Every connection of the relay at once (the lease, the pool, the offset store, Debezium's
      // JDBC and replication connections), as a failover does: it recovers within its timeouts.
      long terminadas =
          BancoDeTeste.JDBC
              .sql(
                  """
                  SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                   WHERE pid <> pg_backend_pid()
                     AND (application_name LIKE 'publicador-outbox%'
                          OR application_name LIKE 'Debezium%'
                          OR pid IN (SELECT active_pid FROM pg_replication_slots
                                      WHERE slot_name = ?))
                  """)
              .param(SLOT)
              .query(Long.class)
              .single();
      assertThat(terminadas).as("lease, pool and Debezium's connections").isGreaterThanOrEqualTo(3);
      aguardarProgresso(eventos, escritor, prefixo);
      assertThat(
              relay
                  .bean(JdbcClient.class)
                  .sql("SHOW statement_timeout")
                  .query(String.class)
                  .single())
          .as("the pool's connections carry their timeouts")
          .isEqualTo("15s");

      relay.close();
      // Rows keep coming while no relay runs; the slot keeps them.
      Set<String> antes = escritor.eventos();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> escritor.eventos().size() > antes.size() + 100);
      relay = RelayDeTeste.iniciar(SLOT, "rein").aguardarTransmitindo();
      aguardarProgresso(eventos, escritor, prefixo);

      escritor.parar();
      Set<String> escritos = escritor.eventos();
      Set<String> pedidos = escritor.pedidosComEfeito();
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> assertThat(eventos.campos(prefixo, "evento_id")).containsAll(escritos));
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> assertThat(efeitos.campos(prefixo, "pedido_id")).containsAll(pedidos));
      await().atMost(Duration.ofSeconds(10)).until(() -> BancoDeTeste.naoEnviados(prefixo) == 0);

      long recebidos = eventos.quantos(prefixo);
      log.info(
          "{} events written in {} transactions, {} records received ({} duplicates)",
          escritos.size(),
          escritos.size() / 10,
          recebidos,
          recebidos - escritos.size());
      assertThat(new HashSet<>(eventos.campos(prefixo, "evento_id"))).isEqualTo(escritos);
    } finally {
      relay.close();
      BancoDeTeste.apagarSlot(SLOT);
    }
  }

  /** Waits until the relay delivered rows written after this call: it is really streaming. */
  static void aguardarProgresso(LeitorDeTopico eventos, EscritorDeLotes escritor, String prefixo) {
    Set<String> jaEscritos = escritor.eventos();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              Set<String> novos = new HashSet<>(eventos.campos(prefixo, "evento_id"));
              novos.removeAll(jaEscritos);
              return novos.size() >= 20;
            });
  }
}
