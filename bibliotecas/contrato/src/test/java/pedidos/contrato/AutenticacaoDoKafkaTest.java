package pedidos.contrato;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AutenticacaoDoKafkaTest {

  @Test
  void asPropriedadesDoClienteAutenticamPorScram() {
    assertThat(AutenticacaoDoKafka.doCliente("pedidos-admin", "s3nha"))
        .containsEntry("security.protocol", "SASL_PLAINTEXT")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry(
            "sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required"
                + " username=\"pedidos-admin\" password=\"s3nha\";");
  }

  @Test
  void umaAspaNaSenhaNaoTerminaALinha() {
    assertThat(AutenticacaoDoKafka.jaas("u", "a\"b\\c")).endsWith(" password=\"a\\\"b\\\\c\";");
  }
}
