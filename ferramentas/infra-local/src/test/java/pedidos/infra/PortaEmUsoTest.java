package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class PortaEmUsoTest {

  @Test
  void postgresNumaPortaOcupadaDizQualVariavelMudar() throws Exception {
    try (ServerSocket ocupante = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int porta = ocupante.getLocalPort();
      assertThatThrownBy(() -> PostgresLocal.builder().porta(porta).iniciar())
          .isInstanceOf(PortaEmUsoException.class)
          .hasMessage("port " + porta + " is already in use; set LOCAL_POSTGRES_PORT");
    }
  }

  @Test
  void kafkaNumaPortaOcupadaDizQualVariavelMudar() throws Exception {
    try (ServerSocket ocupante = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int porta = ocupante.getLocalPort();
      assertThatThrownBy(() -> KafkaLocal.builder().porta(porta).iniciar())
          .isInstanceOf(PortaEmUsoException.class)
          .hasMessage("port " + porta + " is already in use; set LOCAL_KAFKA_PORT");
    }
  }

  @Test
  void aPortaDeOutroPostgresTambemContaComoOcupada() {
    int porta = InfraLocal.compartilhada().postgres().porta();
    assertThatThrownBy(() -> PostgresLocal.builder().porta(porta).iniciar())
        .isInstanceOf(PortaEmUsoException.class)
        .hasMessageContaining("port " + porta + " is already in use");
  }
}
