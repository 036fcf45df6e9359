package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import pedidos.publicador.linhas.ChaveDoEfeito;
import pedidos.testes.InfraDeTeste;

/**
 * The fallback closes the gap of a lost slot: outbox rows committed while the slot did not exist
 * never enter the stream, and are re-sent from the table once they are older than the configured
 * age. The engine also has to start on a new slot ahead of its stored offsets (what a restored
 * database looks like).
 */
class ReenvioTest {

  private static final String SLOT = "teste_reenvio";

  private final String prefixo = "f" + UUID.randomUUID().toString().substring(0, 6) + "-";
  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();

  @Test
  void linhasQueOFluxoPerdeuSaoReenviadasEMarcadas() {
    Map<String, String> propriedades = RelayDeTeste.propriedades(SLOT, "reen");
    propriedades.put("publicador.reenvio.idade", "2s");
    propriedades.put("publicador.reenvio.intervalo", "300ms");
    RelayDeTeste relay = RelayDeTeste.iniciar(propriedades).aguardarTransmitindo();
    try (LeitorDeTopico efeitos = LeitorDeTopico.novos(kafka, "separacao.efeitos")) {
      // Stored offsets exist for this slot from here on.
      BancoDeTeste.inserirEfeito(prefixo + "antes", "liberar_separacao", "pago", 1L, null);
      await().atMost(Duration.ofSeconds(20)).until(() -> BancoDeTeste.naoEnviados(prefixo) == 0);

      relay.supervisor().stop();
      BancoDeTeste.apagarSlot(SLOT);
      // First in the fallback's order, and a record Kafka refuses for good (above the producer's
      // max.request.size, by its status: the effect carries no email): it must neither hold back
      // the rows behind it nor be re-sent forever.
      ChaveDoEfeito veneno = new ChaveDoEfeito(prefixo + "0", "liberar_separacao");
      BancoDeTeste.inserirEfeito(
          veneno.pedidoId(), veneno.efeito(), "\u00e7".repeat(3 << 19), 0L, "v@loja");
      for (int i = 1; i <= 5; i++) {
        BancoDeTeste.inserirEfeito(prefixo + i, "liberar_separacao", "pago", (long) i, "c@loja");
      }
      relay.supervisor().start();
      relay.aguardarTransmitindo();

      await().atMost(Duration.ofSeconds(20)).until(() -> BancoDeTeste.naoEnviados(prefixo) == 1);
      Map<String, Object> morto = MortosTest.morto("outbox", veneno.json());
      assertThat(morto.get("motivo").toString()).contains("RecordTooLargeException");
      assertThat(morto.get("lsn")).as("read from the table, not the WAL").isNull();
      // Skipped from then on: the fallback runs every 300 ms and never tries it again.
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(3))
          .until(
              () ->
                  ((Number) MortosTest.morto("outbox", veneno.json()).get("tentativas")).intValue()
                      == 1);
      assertThat(BancoDeTeste.naoEnviados(veneno.pedidoId())).isEqualTo(1);
      for (int i = 1; i <= 5; i++) {
        ConsumerRecord<String, String> registro = efeitos.comChave(prefixo + i).get(0);
        assertThat(LeitorDeTopico.assinado(registro)).as("the fallback signs too").isTrue();
        assertThat(LeitorDeTopico.cabecalho(registro, "idempotency-key"))
            .isEqualTo(prefixo + i + ":liberar_separacao");
        assertThat(LeitorDeTopico.valor(registro).path("total_centavos").asLong()).isEqualTo(i);
        assertThat(LeitorDeTopico.valor(registro).has("cliente_email"))
            .as("the fallback publishes no email either")
            .isFalse();
      }
      assertThat(
              relay
                  .bean(MeterRegistry.class)
                  .get("publicador.linhas.publicadas")
                  .tags("tabela", "outbox", "via", "reenvio")
                  .counter()
                  .count())
          .isGreaterThanOrEqualTo(5);
      assertThat(
              relay
                  .bean(MeterRegistry.class)
                  .get("publicador.linhas.mortas")
                  .tags("tabela", "outbox", "via", "reenvio")
                  .counter()
                  .count())
          .isEqualTo(1);
    } finally {
      relay.close();
      BancoDeTeste.apagarSlot(SLOT);
    }
  }
}
