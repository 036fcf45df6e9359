package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

class KafkaLocalTest {

  @Test
  void produzEConsomeNoBrokerCompartilhado() throws Exception {
    var cliente = InfraLocal.compartilhada().kafka().cliente(UsuarioDoKafka.ADMINISTRADOR);

    Mensagens.enviar(cliente, "ida-e-volta", "chave", "olá");
    ConsumerRecord<String, String> recebido =
        Mensagens.receberUm(cliente, "ida-e-volta", Duration.ofSeconds(30));

    assertThat(recebido).isNotNull();
    assertThat(recebido.key()).isEqualTo("chave");
    assertThat(recebido.value()).isEqualTo("olá");
  }

  @Test
  void oBrokerCompartilhadoRecusaClienteSemCredenciais() {
    KafkaLocal kafka = InfraLocal.compartilhada().kafka();
    assertThat(kafka.autenticacao()).isTrue();
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                3000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                1000))) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> admin.describeCluster().clusterId().get())
          .isInstanceOf(java.util.concurrent.ExecutionException.class);
    }
  }

  @Test
  void umaPortaPedidaEhRealmenteUsada() throws Exception {
    int porta = Portas.livre();
    try (KafkaLocal kafka = KafkaLocal.builder().porta(porta).iniciar()) {
      assertThat(kafka.bootstrapServers()).isEqualTo("localhost:" + porta);
      assertThat(kafka.porta()).isEqualTo(porta);

      // Clients follow the advertised address from the metadata: it must be the fixed port too.
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
        assertThat(admin.describeCluster().nodes().get())
            .extracting(Node::port)
            .containsExactly(porta);
      }
      Mensagens.enviar(kafka.bootstrapServers(), "porta-fixa", "k", "v");
      assertThat(
              Mensagens.receberUm(kafka.bootstrapServers(), "porta-fixa", Duration.ofSeconds(30)))
          .isNotNull()
          .extracting(ConsumerRecord::value)
          .isEqualTo("v");
    }
  }
}
