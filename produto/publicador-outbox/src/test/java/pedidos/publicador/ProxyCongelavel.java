package pedidos.publicador;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy to PostgreSQL that can make the server vanish the way a failover or a dropped route
 * does: {@link #sumirComOServidor} ends the server's side of every open connection (its sessions,
 * locks and walsenders are gone, as on a dead primary) while the clients' sides stay open and
 * silent, with no reset ever reaching them. Connections opened afterwards go through as before (the
 * new primary behind the same address).
 */
final class ProxyCongelavel implements AutoCloseable {

  private final int portaDoServidor;
  private final ServerSocket escuta;
  private final List<Conexao> conexoes = new CopyOnWriteArrayList<>();

  ProxyCongelavel(int portaDoServidor) throws IOException {
    this.portaDoServidor = portaDoServidor;
    this.escuta = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread aceitar = new Thread(this::aceitar, "proxy-congelavel");
    aceitar.setDaemon(true);
    aceitar.start();
  }

  int porta() {
    return escuta.getLocalPort();
  }

  /** Every connection open now: the server's side is closed, the client's side goes silent. */
  void sumirComOServidor() {
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

  private static final class Conexao {
    private final Socket cliente;
    private final Socket servidor;
    private volatile boolean sumiu;

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
                    para.write(buffer, 0, lidos);
                    para.flush();
                  }
                } catch (IOException e) {
                  // One side is gone.
                }
                if (!sumiu) {
                  fechar();
                }
                // Vanished: the client's socket is left open and nothing more is written to it.
              },
              "proxy-bomba");
      bomba.setDaemon(true);
      bomba.start();
    }

    void sumir() {
      sumiu = true;
      fecharSilenciosamente(servidor);
    }

    void fechar() {
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
