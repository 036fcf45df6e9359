package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import pedidos.infra.InfraLocal;
import pedidos.infra.UsuarioDoKafka;
import pedidos.testes.InfraDeTeste;

/**
 * The relay over SASL_SSL, configured only through the standard Spring Kafka properties a
 * deployment sets (README, "Kafka security"): its producer, its admin and its health all reach a
 * broker that speaks nothing but TLS on that address, with hostname verification on.
 */
class RelaySobreTlsTest {

  private static final String SLOT = "teste_tls";

  private final String prefixo = "tls" + UUID.randomUUID().toString().substring(0, 6) + "-";

  @AfterAll
  static void apagarSlot() {
    BancoDeTeste.apagarSlot(SLOT);
  }

  @Test
  void publicaEventosEEfeitosPeloOuvinteTls() throws Exception {
    Map<String, String> propriedades = RelayDeTeste.propriedades(SLOT, "tls");
    propriedades.putAll(InfraDeTeste.propriedadesDoKafkaSobreTls(UsuarioDoKafka.PUBLICADOR));
    assertThat(propriedades.get("spring.kafka.bootstrap-servers"))
        .isNotEqualTo(InfraLocal.compartilhada().kafka().bootstrapServers());

    try (RelayDeTeste relay = RelayDeTeste.iniciar(propriedades).aguardarTransmitindo();
        LeitorDeTopico eventos =
            LeitorDeTopico.novos(InfraDeTeste.clienteDoKafka(), "loja.eventos");
        LeitorDeTopico efeitos =
            LeitorDeTopico.novos(InfraDeTeste.clienteDoKafka(), "separacao.efeitos")) {
      BancoDeTeste.inserirEvento(
          prefixo + "ev1", prefixo + "p1", "order.paid", "{\"id\": \"" + prefixo + "ev1\"}");
      BancoDeTeste.inserirEfeito(prefixo + "p1", "liberar_separacao", "pago", 100L, null);

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(eventos.comChave(prefixo + "p1")).hasSize(1);
                assertThat(efeitos.comChave(prefixo + "p1")).hasSize(1);
              });
      assertThat(LeitorDeTopico.assinado(eventos.comChave(prefixo + "p1").get(0))).isTrue();
      await().atMost(Duration.ofSeconds(10)).until(() -> BancoDeTeste.naoEnviados(prefixo) == 0);
      assertThat(relay.bean(PublicadorHealthIndicator.class).health().getStatus().getCode())
          .isEqualTo("UP");
    }
  }
}
