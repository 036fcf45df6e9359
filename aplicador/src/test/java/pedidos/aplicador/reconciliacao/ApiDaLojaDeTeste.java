package pedidos.aplicador.reconciliacao;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on loopback answering the orders API contract from a list of pages, or
 * misbehaving on demand: the provider as the reconciliation meets it on the network.
 */
public final class ApiDaLojaDeTeste implements AutoCloseable {

  public enum Comportamento {
    NORMAL,
    ERRO_500,
    LIXO,
    LENTA,
    /** Holds every request without answering until the server is closed. */
    PARADA,
    /** Sends the headers and half of the body, then holds the rest until the server is closed. */
    PARADA_NO_MEIO
  }

  private final HttpServer servidor;
  private final List<String> paginas;
  private final CountDownLatch nunca = new CountDownLatch(1);
  public final List<URI> pedidosRecebidos = new CopyOnWriteArrayList<>();
  final List<String> autorizacoes = new CopyOnWriteArrayList<>();
  public volatile Comportamento comportamento = Comportamento.NORMAL;

  /**
   * @param paginas the bodies of the pages, in order: page i is asked with page_token=i
   */
  public ApiDaLojaDeTeste(List<String> paginas) throws IOException {
    this.paginas = paginas;
    this.servidor = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    servidor.createContext(
        "/orders",
        troca -> {
          pedidosRecebidos.add(troca.getRequestURI());
          autorizacoes.add(troca.getRequestHeaders().getFirst("Authorization"));
          String consulta = troca.getRequestURI().getQuery();
          int pagina = 0;
          for (String parte : consulta.split("&")) {
            if (parte.startsWith("page_token=")) {
              pagina = Integer.parseInt(parte.substring("page_token=".length()));
            }
          }
          int status = 200;
          String corpo = paginas.get(pagina);
          switch (comportamento) {
            case ERRO_500 -> {
              status = 500;
              corpo = "{\"error\": \"boom\"}";
            }
            case LIXO -> corpo = "<html>not json";
            case LENTA -> {
              try {
                nunca.await(3, TimeUnit.SECONDS); // longer than the client's timeout
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            case PARADA -> esperarOFim();
            case PARADA_NO_MEIO -> {
              byte[] bytes = corpo.getBytes(StandardCharsets.UTF_8);
              troca.getResponseHeaders().add("Content-Type", "application/json");
              troca.sendResponseHeaders(200, bytes.length);
              try (var saida = troca.getResponseBody()) {
                saida.write(bytes, 0, bytes.length / 2);
                saida.flush();
                esperarOFim();
              } catch (IOException e) {
                // the client gave up first
              }
              return;
            }
            case NORMAL -> {}
          }
          byte[] bytes = corpo.getBytes(StandardCharsets.UTF_8);
          troca.getResponseHeaders().add("Content-Type", "application/json");
          troca.sendResponseHeaders(status, bytes.length);
          try (var saida = troca.getResponseBody()) {
            saida.write(bytes);
          } catch (IOException e) {
            // the client gave up first: that is the point of LENTA
          }
        });
    servidor.start();
  }

  private void esperarOFim() {
    try {
      nunca.await(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + servidor.getAddress().getPort());
  }

  @Override
  public void close() {
    nunca.countDown();
    servidor.stop(0);
  }
}
