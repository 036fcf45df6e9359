package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import pedidos.infra.InfraLocal;
import pedidos.infra.KafkaLocal;
import pedidos.infra.Portas;

/**
 * Kafka goes away under a running relay: the batch in flight fails, the engine stops and is
 * restarted again and again with a back-off, nothing is skipped; when a broker answers on the same
 * address again, everything written meanwhile is published. A broker of its own (infra-local's, on
 * a fixed port, without authentication), so the shared one stays up for the other tests.
 */
class KafkaForaDoArTest {

  private static final String SLOT = "teste_kafka";

  private final String prefixo = "k" + UUID.randomUUID().toString().substring(0, 6) + "-";

  @Test
  void oMotorParaEReiniciaSemPularNadaEnquantoOKafkaEstaFora() {
    InfraLocal.compartilhada(); // PostgreSQL
    int porta = Portas.livre();
    KafkaLocal primeiro = KafkaLocal.builder().porta(porta).iniciar();
    KafkaLocal segundo = null;
    Map<String, String> propriedades = RelayDeTeste.propriedades(SLOT, "kaf");
    propriedades.put("spring.kafka.bootstrap-servers", primeiro.bootstrapServers());
    // Brokers of this test's own, without authentication.
    propriedades
        .keySet()
        .removeIf(
            nome ->
                nome.startsWith("spring.kafka.security.")
                    || nome.startsWith("spring.kafka.properties.sasl."));
    // Fail fast: a send gives up after 3 s instead of 30.
    propriedades.put("spring.kafka.producer.properties.delivery.timeout.ms", "3000");
    propriedades.put("spring.kafka.producer.properties.request.timeout.ms", "1000");
    propriedades.put("spring.kafka.producer.properties.max.block.ms", "1000");
    propriedades.put("publicador.topicos.espera", "2s");
    propriedades.put("publicador.reinicio.maxima", "1s");
    RelayDeTeste relay = RelayDeTeste.iniciar(propriedades).aguardarTransmitindo();
    try {
      try (LeitorDeTopico eventos =
          LeitorDeTopico.novos(primeiro.bootstrapServers(), "loja.eventos")) {
        BancoDeTeste.inserirEvento(prefixo + "antes", prefixo + "p0", "order.created", "{}");
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> !eventos.comChave(prefixo + "p0").isEmpty());
      }

      primeiro.close();
      Set<String> escritos =
          IntStream.rangeClosed(1, 20).mapToObj(i -> prefixo + "e" + i).collect(Collectors.toSet());
      for (String evento : escritos) {
        BancoDeTeste.inserirEvento(evento, prefixo + "p-" + evento, "order.created", "{}");
      }
      BancoDeTeste.inserirEfeito(prefixo + "p-fora", "liberar_separacao", "pago", 1L, null);

      int falhasAntes = relay.situacao().falhas();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> relay.situacao().falhas() >= falhasAntes + 2);
      assertThat(relay.situacao().ultimaFalha()).isNotNull();
      assertThat(relay.bean(PublicadorHealthIndicator.class).health().getStatus())
          .isEqualTo(Status.DOWN);
      assertThat(BancoDeTeste.naoEnviados(prefixo)).as("nothing marked sent").isEqualTo(1);

      segundo = KafkaLocal.builder().porta(porta).iniciar();
      relay.aguardarTransmitindo();
      assertThat(relay.bean(PublicadorHealthIndicator.class).health().getStatus())
          .isEqualTo(Status.UP);
      try (LeitorDeTopico eventos =
              LeitorDeTopico.desdeOInicio(segundo.bootstrapServers(), "loja.eventos");
          LeitorDeTopico efeitos =
              LeitorDeTopico.desdeOInicio(segundo.bootstrapServers(), "separacao.efeitos")) {
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () -> assertThat(eventos.campos(prefixo, "evento_id")).containsAll(escritos));
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> !efeitos.comChave(prefixo + "p-fora").isEmpty());
        await().atMost(Duration.ofSeconds(10)).until(() -> BancoDeTeste.naoEnviados(prefixo) == 0);
      }
    } finally {
      relay.close();
      if (segundo != null) {
        segundo.close();
      }
      primeiro.close();
      BancoDeTeste.apagarSlot(SLOT);
    }
  }
}
