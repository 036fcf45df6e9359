package pedidos.simulador;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import pedidos.dominio.Fato;
import pedidos.dominio.Interpretacao;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reconciliation contract in front of {@link SistemaDeReferencia}: every round reads the orders
 * API from the cursor minus an overlap, page by page, and stores each order as an {@code api.order}
 * fact under the agreed id.
 */
final class ReconciliadorDeReferencia implements AutoCloseable {

  private static final Duration SOBREPOSICAO = Duration.ofSeconds(1);

  private final SistemaDeReferencia sistema;
  private final URI api;
  private final String token;
  private final HttpClient http = HttpClient.newHttpClient();
  private final JsonMapper json =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
  private final ScheduledExecutorService agenda = Executors.newSingleThreadScheduledExecutor();
  private Instant cursor = Instant.EPOCH;
  final AtomicInteger rodadas = new AtomicInteger();

  ReconciliadorDeReferencia(
      SistemaDeReferencia sistema, URI api, String token, Duration intervalo) {
    this.sistema = sistema;
    this.api = api;
    this.token = token;
    agenda.scheduleWithFixedDelay(this::rodada, 0, intervalo.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void rodada() {
    try {
      String pagina = null;
      do {
        String consulta =
            api
                + "/orders?limit=20&updated_since="
                + URLEncoder.encode(cursor.minus(SOBREPOSICAO).toString(), StandardCharsets.UTF_8)
                + (pagina == null ? "" : "&page_token=" + pagina);
        HttpResponse<String> resposta =
            http.send(
                HttpRequest.newBuilder(URI.create(consulta))
                    .header("Authorization", "Bearer " + token)
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode corpo = json.readTree(resposta.body());
        for (JsonNode pedido : corpo.path("orders")) {
          guardar(pedido);
        }
        pagina = corpo.path("next").isString() ? corpo.path("next").stringValue() : null;
      } while (pagina != null);
      rodadas.incrementAndGet();
    } catch (Exception e) {
      // A failed round costs one round, as in the real applier.
    }
  }

  private void guardar(JsonNode pedido) throws Exception {
    String id = pedido.path("id").stringValue();
    String status = pedido.path("status").stringValue();
    String atualizado = pedido.path("updated_at").stringValue();
    String versao =
        pedido.path("sequence").isNumber()
            ? "s" + pedido.path("sequence").decimalValue().toBigInteger()
            : atualizado;
    String eventoId = "api:" + id + ":" + versao + ":" + status;
    Interpretacao interpretacao =
        Interpretacao.daApi(
            eventoId,
            status,
            pedido.path("sequence").isNumber() ? pedido.path("sequence").decimalValue() : null,
            atualizado,
            pedido.path("total_cents").isNumber() ? pedido.path("total_cents").longValue() : null,
            pedido.path("customer_email").isString()
                ? pedido.path("customer_email").stringValue()
                : null);
    sistema.receber(id, "api.order", json.writeValueAsString(pedido), (Fato) interpretacao);
    Instant instante = Instant.parse(atualizado);
    if (instante.isAfter(cursor)) {
      cursor = instante;
    }
  }

  @Override
  public void close() throws InterruptedException {
    agenda.shutdownNow();
    agenda.awaitTermination(10, TimeUnit.SECONDS);
  }
}
