package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortasLivresTest {

  @Test
  void umaPortaLivreVemDeForaDaFaixaEfemeraENuncaSeRepete() throws Exception {
    int limite = Portas.inicioDaFaixaEfemera();
    Set<Integer> dadas = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      int porta = Portas.livre();
      assertThat(porta).isBetween(Portas.PRIMEIRA_CANDIDATA, limite - 1);
      assertThat(dadas.add(porta)).as("port %d handed out twice", porta).isTrue();
    }
  }

  @Test
  void umServidorEscutaNaPortaDada() throws Exception {
    int porta = Portas.livre();
    try (ServerSocket servidor = new ServerSocket(porta, 1, InetAddress.getLoopbackAddress())) {
      assertThat(servidor.getLocalPort()).isEqualTo(porta);
    }
  }
}
