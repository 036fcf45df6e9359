package pedidos.aplicador.reconciliacao;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.util.UriComponentsBuilder;
import pedidos.aplicador.aplicacao.LeitoresDoEnvelope;
import pedidos.contrato.EnvelopeDeEntrada;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The provider's orders API: {@code GET {url}/orders?updated_since=&limit=[&page_token=]} with a
 * bearer token, answering {@code {"orders": [...], "next": token|null}}. Anything else is a {@link
 * FalhaDaApiException}.
 *
 * <p>The answer is parsed as it streams in, one order at a time, and never held whole: a page holds
 * at most the {@code limit} orders asked for (more is a broken answer), each within the input
 * envelope's limits, since it is stored as a fact like any webhook. The timeout bounds the
 * connection and every read of the answer, so a server that stops sending mid-body fails the round
 * too.
 */
public final class ClienteDaLoja {

  private final RestClient http;
  private final URI base;
  private final int limite;
  // Floats read as BigDecimal, as for stored events; no bound on the whole answer, which is
  // streamed, but every order is bounded like an event. Each order is read as a tree in the middle
  // of the answer, so the rest of the answer is not a "trailing token".
  private final JsonMapper json =
      LeitoresDoEnvelope.leitor(-1, true)
          .rebuild()
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  public ClienteDaLoja(URI base, String token, int limite, Duration timeout) {
    // HttpURLConnection's read timeout applies to every read of the body, where the JDK client's
    // request timeout stops at the headers.
    var fabrica = new SimpleClientHttpRequestFactory();
    fabrica.setConnectTimeout(timeout);
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
    try {
      return http.get()
          .uri(uri.encode().build().toUri())
          .exchange(
              (pedido, resposta) -> {
                if (!resposta.getStatusCode().is2xxSuccessful()) {
                  throw new FalhaDaApiException(
                      "orders API answered " + resposta.getStatusCode().value());
                }
                try (InputStream corpo = resposta.getBody()) {
                  return ler(corpo);
                }
              });
    } catch (RestClientException e) {
      throw new FalhaDaApiException("orders API failed: " + e.getMessage(), e);
    }
  }

  private PaginaDePedidos ler(InputStream corpo) throws IOException {
    try (JsonParser leitor = json.createParser(corpo)) {
      if (leitor.nextToken() != JsonToken.START_OBJECT) {
        throw new FalhaDaApiException("orders API answered something that is not a JSON object");
      }
      List<PedidoDaApi> lidos = null;
      String proxima = null;
      while (leitor.nextToken() == JsonToken.PROPERTY_NAME) {
        String nome = leitor.currentName();
        JsonToken valor = leitor.nextToken();
        switch (nome) {
          case "orders" -> {
            if (valor != JsonToken.START_ARRAY) {
              throw new FalhaDaApiException("orders API answered without an orders array");
            }
            lidos = new ArrayList<>();
            while (leitor.nextToken() != JsonToken.END_ARRAY) {
              if (lidos.size() == limite) {
                throw new FalhaDaApiException(
                    "orders API answered more than the " + limite + " orders asked for");
              }
              lidos.add(pedido(json.readTree(leitor)));
            }
          }
          case "next" -> proxima = valor == JsonToken.VALUE_STRING ? leitor.getString() : null;
          default -> leitor.skipChildren();
        }
      }
      if (lidos == null) {
        throw new FalhaDaApiException("orders API answered without an orders array");
      }
      return new PaginaDePedidos(lidos, proxima);
    } catch (JacksonIOException e) {
      throw new FalhaDaApiException("orders API broke off its answer: " + e.getMessage(), e);
    } catch (JacksonException e) {
      String limiteExcedido = LeitoresDoEnvelope.limiteExcedido(e);
      throw new FalhaDaApiException(
          limiteExcedido == null
              ? "orders API answered something that is not JSON: " + e.getOriginalMessage()
              : "orders API answered an order outside the input envelope: " + limiteExcedido,
          e);
    }
  }

  private PedidoDaApi pedido(JsonNode pedido) {
    JsonNode id = pedido.path("id");
    if (!id.isString() || id.stringValue().isBlank()) {
      throw new FalhaDaApiException("orders API answered an order without an id");
    }
    String texto = json.writeValueAsString(pedido);
    if (texto.length() > EnvelopeDeEntrada.BYTES_NO_JSONB) {
      throw new FalhaDaApiException("orders API answered an order larger than an event may be");
    }
    return new PedidoDaApi(
        id.stringValue(),
        texto(pedido.path("status")),
        pedido.path("sequence").isNumber() ? pedido.path("sequence").decimalValue() : null,
        texto(pedido.path("updated_at")),
        inteiro(pedido.path("total_cents")),
        texto(pedido.path("customer_email")),
        texto);
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
