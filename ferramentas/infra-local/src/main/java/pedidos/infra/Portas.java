package pedidos.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** Choosing the ports local servers listen on, and checking them before a server is started. */
public final class Portas {

  /** The ports {@link #livre()} draws from start here, above the well-known servers' ports. */
  static final int PRIMEIRA_CANDIDATA = 15_000;

  private static final Path FAIXA_EFEMERA = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  // IANA's ephemeral range, which systems without the Linux file use.
  private static final int EFEMERA_PADRAO = 49_152;
  private static final int TENTATIVAS = 1_000;
  private static final Set<Integer> DADAS = new HashSet<>();

  private Portas() {}

  /**
   * A port free now, from below the kernel's ephemeral range, and never handed out before in this
   * JVM.
   *
   * <p>A port the kernel picks ({@code bind} to port 0) comes from the ephemeral range, where every
   * outgoing connection and every other {@code bind(0)} also takes its local port: between the pick
   * and the server's own bind, one of them can take it (a broker restarted on its port "did not
   * start" once in CI). Below the range, only another server started on a fixed port can.
   */
  public static synchronized int livre() {
    int limite = inicioDaFaixaEfemera();
    ThreadLocalRandom acaso = ThreadLocalRandom.current();
    for (int i = 0; i < TENTATIVAS && limite - PRIMEIRA_CANDIDATA > TENTATIVAS; i++) {
      int porta = acaso.nextInt(PRIMEIRA_CANDIDATA, limite);
      if (!DADAS.contains(porta) && livreEmTodasAsInterfaces(porta)) {
        DADAS.add(porta);
        return porta;
      }
    }
    // A machine whose ephemeral range starts low leaves no room below it: let the kernel pick.
    while (true) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        if (DADAS.add(socket.getLocalPort())) {
          return socket.getLocalPort();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("no free local port", e);
      }
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

  /** The first port of the range the kernel draws local ports from. */
  static int inicioDaFaixaEfemera() {
    try {
      // Not Files.readString: it trusts the size /proc reports and reads one byte.
      String[] faixa = Files.readAllLines(FAIXA_EFEMERA).get(0).trim().split("\\s+");
      return Integer.parseInt(faixa[0]);
    } catch (IOException | RuntimeException e) {
      return EFEMERA_PADRAO;
    }
  }

  // The wildcard address: a server bound to any one address would refuse it too, and no
  // SO_REUSEADDR, so a port still in TIME_WAIT from a server of before is not taken either.
  private static boolean livreEmTodasAsInterfaces(int porta) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(porta), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
