package pedidos.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A TCP proxy to PostgreSQL for the tests of a network that fails without saying so. Connections
 * opened at any time go through as before (a new route, a new primary behind the same address);
 * those open at the moment of a failure suffer it:
 *
 * <ul>
 *   <li>{@link #congelar()}: a partition, a flushed NAT or firewall table, a hung pooler. Nothing
 *       is forwarded any more, in either direction, and nothing is closed: each side keeps a
 *       healthy socket to the proxy and hears silence, so the server keeps the backends (and their
 *       locks) until it ends them itself. {@link #descongelar()} heals it: what was held back is
 *       delivered, and a side that closed meanwhile is closed on the other.
 *   <li>{@link #sumirComOServidor()}: a failover or a dead primary. The server's side of each
 *       connection is closed (its sessions, locks and walsenders are gone), the client's side stays
 *       open and silent, with no reset ever reaching it.
 * </ul>
 */
public final class ProxyCongelavel implements AutoCloseable {

  private final int portaDoServidor;
  private final ServerSocket escuta;
  private final List<Conexao> conexoes = new CopyOnWriteArrayList<>();

  public ProxyCongelavel(int portaDoServidor) throws IOException {
    this.portaDoServidor = portaDoServidor;
    this.escuta = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    Thread aceitar = new Thread(this::aceitar, "proxy-congelavel");
    aceitar.setDaemon(true);
    aceitar.start();
  }

  public int porta() {
    return escuta.getLocalPort();
  }

  /** The URL of a database behind this proxy: the server's URL with this proxy's port. */
  public String jdbcUrl(PostgresLocal postgres) {
    return "jdbc:postgresql://127.0.0.1:" + porta() + "/" + postgres.banco();
  }

  /**
   * Freezes every connection open now, in both directions, closing none.
   *
   * @return the server-side ports of the frozen connections: the {@code client_port} of their
   *     backends in {@code pg_stat_activity}
   */
  public Set<Integer> congelar() {
    return conexoes.stream()
        .filter(Conexao::congelar)
        .map(conexao -> conexao.servidor.getLocalPort())
        .collect(Collectors.toSet());
  }

  /** Heals every frozen connection: what was held back goes through, closes included. */
  public void descongelar() {
    conexoes.forEach(Conexao::descongelar);
  }

  /** Every connection open now: the server's side is closed, the client's side goes silent. */
  public void sumirComOServidor() {
    for (Conexao conexao : conexoes) {
      conexao.sumir();
    }
  }

  private void aceitar() {
    while (!escuta.isClosed()) {
      try {
        Socket cliente = escuta.accept();
        Socket servidor = new Socket(InetAddress.getLoopbackAddress(), portaDoServidor);
        Conexao conexao = new Conexao(cliente, servidor);
        conexoes.add(conexao);
        conexao.bombear();
      } catch (IOException e) {
        // Closed, or the server refused: the client sees its connection end.
      }
    }
  }

  @Override
  public void close() throws IOException {
    escuta.close();
    for (Conexao conexao : conexoes) {
      conexao.fechar();
    }
  }

  private final class Conexao {
    private final Socket cliente;
    private final Socket servidor;
    private volatile boolean sumiu;
    private boolean congelada;
    private boolean fechada;

    Conexao(Socket cliente, Socket servidor) {
      this.cliente = cliente;
      this.servidor = servidor;
    }

    void bombear() throws IOException {
      iniciar(cliente.getInputStream(), servidor.getOutputStream());
      iniciar(servidor.getInputStream(), cliente.getOutputStream());
    }

    private void iniciar(InputStream de, OutputStream para) {
      Thread bomba =
          new Thread(
              () -> {
                byte[] buffer = new byte[16 * 1024];
                try {
                  int lidos;
                  while ((lidos = de.read(buffer)) >= 0 && !sumiu) {
                    // Held here while frozen; the kernel's buffers then fill and the sender
                    // waits, as behind a dead route.
                    if (!aguardarDegelo() || sumiu) {
                      return;
                    }
                    para.write(buffer, 0, lidos);
                    para.flush();
                  }
                } catch (IOException e) {
                  // One side is gone.
                }
                // A side that closed while frozen is closed on the other only once healed.
                if (aguardarDegelo() && !sumiu) {
                  fechar();
                }
                // Vanished: the client's socket is left open and nothing more is written to it.
              },
              "proxy-bomba");
      bomba.setDaemon(true);
      bomba.start();
    }

    /** False when the connection was closed meanwhile (the proxy itself closing). */
    private synchronized boolean aguardarDegelo() {
      while (congelada && !fechada) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return !fechada;
    }

    /** True if it was open and is now frozen. */
    synchronized boolean congelar() {
      if (fechada || sumiu || congelada) {
        return false;
      }
      congelada = true;
      return true;
    }

    synchronized void descongelar() {
      congelada = false;
      notifyAll();
    }

    void sumir() {
      sumiu = true;
      fecharSilenciosamente(servidor);
    }

    void fechar() {
      synchronized (this) {
        fechada = true;
        notifyAll();
      }
      conexoes.remove(this);
      fecharSilenciosamente(servidor);
      fecharSilenciosamente(cliente);
    }

    private static void fecharSilenciosamente(Socket socket) {
      try {
        socket.close();
      } catch (IOException e) {
        // Already closed.
      }
    }
  }
}
