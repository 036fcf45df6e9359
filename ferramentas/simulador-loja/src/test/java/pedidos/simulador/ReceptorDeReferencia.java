package pedidos.simulador;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.dominio.Fato;
import pedidos.dominio.Interpretacao;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The receptor's contract over real HTTP in front of {@link SistemaDeReferencia}: 401 for a bad
 * signature, 200 once stored (also for duplicates), and 503 now and then, before storing or after
 * (the answer lost, not the event), so that the simulator's redeliveries are exercised.
 */
final class ReceptorDeReferencia implements AutoCloseable {

  private final HttpServer servidor;
  private final ExecutorService threads = Executors.newFixedThreadPool(8);
  private final SistemaDeReferencia sistema;
  private final AssinaturaDeWebhook assinatura;
  private final double falhas;
  private final JsonMapper json =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
  final AtomicInteger respostas503 = new AtomicInteger();

  /**
   * @param falhas the fraction of requests answered 503, half of them after storing
   */
  ReceptorDeReferencia(SistemaDeReferencia sistema, String segredo, double falhas)
      throws IOException {
    this.sistema = sistema;
    this.assinatura = AssinaturaDeWebhook.doSegredo(segredo);
    this.falhas = falhas;
    this.servidor = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
    servidor.createContext("/webhooks/loja", this::receber);
    servidor.setExecutor(threads);
    servidor.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + servidor.getAddress().getPort());
  }

  private void receber(HttpExchange troca) throws IOException {
    try (troca) {
      byte[] corpo = troca.getRequestBody().readAllBytes();
      if (!assinatura.confereDaLoja(
          corpo, troca.getRequestHeaders().getFirst(AssinaturaDeWebhook.CABECALHO_DA_LOJA))) {
        troca.sendResponseHeaders(401, -1);
        return;
      }
      double sorteio = ThreadLocalRandom.current().nextDouble();
      if (sorteio < falhas / 2) {
        respostas503.incrementAndGet();
        troca.sendResponseHeaders(503, -1);
        return;
      }
      JsonNode evento = json.readTree(corpo);
      JsonNode dados = evento.path("data");
      Interpretacao interpretacao =
          Interpretacao.doEvento(
              evento.path("id").stringValue(),
              evento.path("type").stringValue(),
              evento.path("sequence").isNumber() ? evento.path("sequence").decimalValue() : null,
              evento.path("occurred_at").stringValue(),
              dados.path("total_cents").isNumber() ? dados.path("total_cents").longValue() : null,
              dados.path("customer_email").isString()
                  ? dados.path("customer_email").stringValue()
                  : null);
      if (!(interpretacao instanceof Fato fato)) {
        troca.sendResponseHeaders(400, -1);
        return;
      }
      sistema.receber(
          dados.path("id").stringValue(),
          evento.path("type").stringValue(),
          new String(corpo, StandardCharsets.UTF_8),
          fato);
      if (sorteio < falhas) {
        respostas503.incrementAndGet();
        troca.sendResponseHeaders(503, -1);
        return;
      }
      troca.sendResponseHeaders(200, -1);
    } catch (SQLException e) {
      troca.sendResponseHeaders(503, -1);
    }
  }

  @Override
  public void close() {
    servidor.stop(0);
    threads.shutdownNow();
  }
}
