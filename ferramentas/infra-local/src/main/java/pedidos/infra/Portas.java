package pedidos.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Port checks done before a server is started. */
final class Portas {

  private Portas() {}

  /** A port free right now; another process may take it before we bind, which is acceptable. */
  static int livre() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free local port", e);
    }
  }

  /**
   * Fails with a readable message if something listens on the port.
   *
   * <p>Checked up front because zonky waits for "a server answering on the port", so a foreign
   * PostgreSQL already there would be mistaken for ours.
   */
  static void garantirLivre(int porta, String variavel) {
    try (ServerSocket socket = new ServerSocket()) {
      // Same option the servers use: a socket in TIME_WAIT after our own restart is not "in use".
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), porta), 1);
    } catch (IOException e) {
      throw new PortaEmUsoException(porta, variavel);
    }
  }

  static int validar(int porta) {
    if (porta < 0 || porta > 65535) {
      throw new IllegalArgumentException("invalid port " + porta + " (0 means a random free port)");
    }
    return porta;
  }
}
