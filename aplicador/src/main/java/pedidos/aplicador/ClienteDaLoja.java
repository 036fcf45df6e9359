package pedidos.aplicador;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The provider's orders API: {@code GET {url}/orders?updated_since=&limit=[&page_token=]} with a
 * bearer token, answering {@code {"orders": [...], "next": token|null}}. Anything else is a {@link
 * FalhaDaApiException}.
 */
final class ClienteDaLoja {

  private final RestClient http;
  private final URI base;
  private final int limite;
  private final JsonMapper json =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  ClienteDaLoja(URI base, String token, int limite, Duration timeout) {
    var cliente = HttpClient.newBuilder().connectTimeout(timeout).build();
    var fabrica = new JdkClientHttpRequestFactory(cliente);
    fabrica.setReadTimeout(timeout);
    this.http =
        RestClient.builder()
            .requestFactory(fabrica)
            .defaultHeader("Authorization", "Bearer " + token)
            .build();
    this.base = base;
    this.limite = limite;
  }

  PaginaDePedidos buscar(Instant desde, String pagina) {
    var uri =
        UriComponentsBuilder.fromUri(base)
            .path("/orders")
            .queryParam("updated_since", desde.toString())
            .queryParam("limit", limite);
    if (pagina != null) {
      uri.queryParam("page_token", pagina);
    }
    String corpo;
    try {
      corpo = http.get().uri(uri.encode().build().toUri()).retrieve().body(String.class);
    } catch (RestClientException e) {
      throw new FalhaDaApiException("orders API failed: " + e.getMessage(), e);
    }
    return ler(corpo);
  }

  private PaginaDePedidos ler(String corpo) {
    JsonNode pagina;
    try {
      pagina = json.readTree(corpo == null ? "" : corpo);
    } catch (JacksonException e) {
      throw new FalhaDaApiException("orders API answered something that is not JSON", e);
    }
    JsonNode pedidos = pagina.path("orders");
    if (!pedidos.isArray()) {
      throw new FalhaDaApiException("orders API answered without an orders array");
    }
    List<PedidoDaApi> lidos = new ArrayList<>();
    for (JsonNode pedido : pedidos) {
      JsonNode id = pedido.path("id");
      if (!id.isString() || id.stringValue().isBlank()) {
        throw new FalhaDaApiException("orders API answered an order without an id");
      }
      lidos.add(
          new PedidoDaApi(
              id.stringValue(),
              texto(pedido.path("status")),
              pedido.path("sequence").isNumber() ? pedido.path("sequence").decimalValue() : null,
              texto(pedido.path("updated_at")),
              inteiro(pedido.path("total_cents")),
              texto(pedido.path("customer_email")),
              json.writeValueAsString(pedido)));
    }
    JsonNode proxima = pagina.path("next");
    return new PaginaDePedidos(lidos, proxima.isString() ? proxima.stringValue() : null);
  }

  private static String texto(JsonNode node) {
    return node.isString() ? node.stringValue() : null;
  }

  private static Long inteiro(JsonNode node) {
    if (!node.isNumber()) {
      return null;
    }
    BigDecimal numero = node.decimalValue();
    try {
      return numero.longValueExact();
    } catch (ArithmeticException e) {
      return null;
    }
  }
}
