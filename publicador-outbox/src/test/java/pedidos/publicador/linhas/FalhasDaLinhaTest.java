package pedidos.publicador.linhas;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaProducerException;
import tools.jackson.core.exc.StreamConstraintsException;

/** Only a row's own, repeatable failure dead-letters it; anything else stops and retries. */
class FalhasDaLinhaTest {

  private static final ProducerRecord<String, String> REGISTRO =
      new ProducerRecord<>("t", "k", "v");

  @Test
  void falhasDaPropriaLinha() {
    RecordTooLargeException grande = new RecordTooLargeException("too large");
    assertThat(FalhasDaLinha.daLinha(new KafkaProducerException(REGISTRO, "send", grande)))
        .isSameAs(grande);
    MudancaIlegivelException ilegivel =
        new MudancaIlegivelException("not JSON", new StreamConstraintsException("1001 digits"));
    assertThat(FalhasDaLinha.daLinha(ilegivel)).isSameAs(ilegivel);
  }

  @Test
  void falhasDoMomentoOuDoRelayNaoSaoDaLinha() {
    assertThat(
            FalhasDaLinha.daLinha(
                new KafkaProducerException(REGISTRO, "send", new TimeoutException("expired"))))
        .as("Kafka down: delivery timeout")
        .isNull();
    assertThat(FalhasDaLinha.daLinha(new NotLeaderOrFollowerException("moving")))
        .as("retriable")
        .isNull();
    assertThat(FalhasDaLinha.daLinha(new TopicAuthorizationException("acl")))
        .as("every row would fail alike")
        .isNull();
    assertThat(FalhasDaLinha.daLinha(new IllegalStateException("unknown"))).isNull();
    assertThat(
            FalhasDaLinha.daLinha(
                new RecordTooLargeException(
                    "wrapping a retriable one", new TimeoutException("expired"))))
        .as("a retriable cause wins")
        .isNull();
  }
}
