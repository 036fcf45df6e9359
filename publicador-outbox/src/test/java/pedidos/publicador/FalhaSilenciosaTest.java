package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;
import pedidos.infra.ProxyCongelavel;
import pedidos.publicador.supervisao.Papel;
import pedidos.testes.InfraDeTeste;

/**
 * A primary that vanishes without a TCP reset (a failover, a dropped route): every connection of
 * the relay goes silent at once, and no thread may wait on one forever. The relay gives the dead
 * connections up within its timeouts and streams on through new ones.
 */
class FalhaSilenciosaTest {

  private static final Logger log = LoggerFactory.getLogger(FalhaSilenciosaTest.class);
  private static final String SLOT = "teste_silencio";

  private final String prefixo = "s" + UUID.randomUUID().toString().substring(0, 7) + "-";
  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();

  @Test
  void oRelaySegueQuandoOPrimarioSomeSemResetTcp() throws Exception {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    try (ProxyCongelavel proxy = new ProxyCongelavel(postgres.porta())) {
      Map<String, String> propriedades = RelayDeTeste.propriedades(SLOT, "sil");
      propriedades.put("spring.datasource.url", proxy.jdbcUrl(postgres));
      RelayDeTeste relay = RelayDeTeste.iniciar(propriedades).aguardarTransmitindo();
      try (LeitorDeTopico eventos = LeitorDeTopico.novos(kafka, "loja.eventos")) {
        BancoDeTeste.inserirEvento(prefixo + "antes", prefixo + "antes", "order.paid", "{}");
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> !eventos.comChave(prefixo + "antes").isEmpty());

        long inicio = System.nanoTime();
        proxy.sumirComOServidor();
        BancoDeTeste.inserirEvento(prefixo + "depois", prefixo + "depois", "order.paid", "{}");
        // Marking an outbox row sent goes through the pool, whose connections all went silent.
        BancoDeTeste.inserirEfeito(prefixo + "depois", "liberar_separacao", "pago", 1L, null);

        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> !eventos.comChave(prefixo + "depois").isEmpty());
        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> BancoDeTeste.naoEnviados(prefixo + "depois") == 0);
        log.info(
            "Streaming again {} ms after the primary vanished",
            (System.nanoTime() - inicio) / 1_000_000);
        assertThat(relay.situacao().papel()).isEqualTo(Papel.ATIVO);
      } finally {
        relay.close();
        BancoDeTeste.apagarSlot(SLOT);
      }
    }
  }
}
