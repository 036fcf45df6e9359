package pedidos.simulador;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real HTTP receptor on loopback that checks each signature with its own HMAC and answers what
 * the test's policy says for each attempt: the network side of a receptor, without its storage.
 */
final class ReceptorDeTeste implements AutoCloseable {

  /** What to answer to the n-th request (1-based) carrying an event; 0 hangs the request. */
  interface Politica {
    int responder(String eventoId, int tentativa);
  }

  record Recebimento(String eventoId, boolean assinaturaValida, int resposta) {}

  private final HttpServer servidor;
  private final ExecutorService threads = Executors.newFixedThreadPool(16);
  private final byte[] segredo;
  private final Politica politica;
  private final JsonMapper json = JsonMapper.builder().build();
  private final Map<String, AtomicInteger> tentativas = new ConcurrentHashMap<>();
  private final CountDownLatch soltar = new CountDownLatch(1);
  final List<Recebimento> recebimentos = new CopyOnWriteArrayList<>();

  ReceptorDeTeste(String segredo, Politica politica) throws IOException {
    this.segredo = segredo.getBytes(StandardCharsets.UTF_8);
    this.politica = politica;
    this.servidor = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
    servidor.createContext("/webhooks/loja", this::receber);
    servidor.setExecutor(threads);
    servidor.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + servidor.getAddress().getPort());
  }

  long vezes(String eventoId) {
    return recebimentos.stream().filter(r -> r.eventoId().equals(eventoId)).count();
  }

  private void receber(HttpExchange troca) throws IOException {
    try (troca) {
      byte[] corpo = troca.getRequestBody().readAllBytes();
      String assinatura = troca.getRequestHeaders().getFirst("x-loja-signature");
      String eventoId = json.readTree(corpo).path("id").stringValue();
      int tentativa =
          tentativas.computeIfAbsent(eventoId, id -> new AtomicInteger()).incrementAndGet();
      int resposta = politica.responder(eventoId, tentativa);
      recebimentos.add(new Recebimento(eventoId, hmac(corpo).equals(assinatura), resposta));
      if (resposta == 0) {
        // Never answers in the client's time; released when the test ends.
        soltar.await(30, TimeUnit.SECONDS);
        return;
      }
      troca.sendResponseHeaders(resposta, -1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String hmac(byte[] corpo) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(segredo, "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(corpo));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    soltar.countDown();
    servidor.stop(0);
    threads.shutdownNow();
  }
}
