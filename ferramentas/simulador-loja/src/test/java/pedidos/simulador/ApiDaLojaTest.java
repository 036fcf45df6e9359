package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The orders API contract over real HTTP. */
class ApiDaLojaTest {

  private static final String TOKEN = "token-de-teste";
  private static final Instant INICIO = Instant.parse("2026-11-29T12:00:00Z");
  private static final List<PedidoGerado> PEDIDOS = Gerador.gerar(11, 50, "a", INICIO, 100);

  private final HttpClient http = HttpClient.newHttpClient();
  private final JsonMapper json = JsonMapper.builder().build();
  private final VistasServidas servidas = new VistasServidas();
  private ApiDaLoja api;

  @AfterEach
  void parar() {
    if (api != null) {
      api.close();
    }
  }

  @Test
  void semOTokenCerto401() throws Exception {
    iniciar(Instant.MAX);
    String consulta = "/orders?updated_since=2026-11-29T00:00:00Z&limit=10";

    assertThat(get(consulta, null).statusCode()).isEqualTo(401);
    assertThat(get(consulta, "Bearer outro").statusCode()).isEqualTo(401);
    assertThat(get(consulta, TOKEN).statusCode()).isEqualTo(401);
    assertThat(get(consulta, "Bearer " + TOKEN).statusCode()).isEqualTo(200);
    assertThat(servidas.paginas()).isEqualTo(1);
  }

  @Test
  void parametrosInvalidos400() throws Exception {
    iniciar(Instant.MAX);

    for (String consulta :
        List.of(
            "/orders?limit=10",
            "/orders?updated_since=ontem&limit=10",
            "/orders?updated_since=2026-11-29T00:00:00&limit=10",
            "/orders?updated_since=2026-11-29T00:00:00Z&limit=0",
            "/orders?updated_since=2026-11-29T00:00:00Z&limit=1001",
            "/orders?updated_since=2026-11-29T00:00:00Z&limit=dez",
            "/orders?updated_since=2026-11-29T00:00:00Z&limit=10&page_token=%21%21")) {
      assertThat(get(consulta, "Bearer " + TOKEN).statusCode()).as(consulta).isEqualTo(400);
    }
    assertThat(get("/orders/x", "Bearer " + TOKEN).statusCode()).isEqualTo(404);
    HttpResponse<String> post =
        http.send(
            HttpRequest.newBuilder(api.url().resolve("/orders?updated_since=x"))
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(405);
  }

  @Test
  void paginasCobremTodosOsPedidosUmaVezEmOrdemDeUpdatedAt() throws Exception {
    iniciar(Instant.MAX);

    List<JsonNode> lidos = lerTudo(INICIO.minusSeconds(86_400), 7);

    assertThat(lidos).hasSize(PEDIDOS.size());
    Set<String> ids = new HashSet<>();
    lidos.forEach(p -> assertThat(ids.add(p.path("id").stringValue())).isTrue());
    assertThat(lidos)
        .isSortedAccordingTo(
            (a, b) -> {
              int porInstante =
                  Instant.parse(a.path("updated_at").stringValue())
                      .compareTo(Instant.parse(b.path("updated_at").stringValue()));
              return porInstante != 0
                  ? porInstante
                  : a.path("id").stringValue().compareTo(b.path("id").stringValue());
            });
    for (JsonNode lido : lidos) {
      PedidoGerado pedido = pedido(lido.path("id").stringValue());
      EventoDaLoja ultimo = pedido.ultimo();
      assertThat(lido.path("status").stringValue()).isEqualTo(ultimo.status().statusDaApi());
      assertThat(lido.path("updated_at").stringValue()).isEqualTo(ultimo.ocorridoEmTexto());
      assertThat(lido.has("sequence")).isEqualTo(pedido.porSequencia());
      if (pedido.porSequencia()) {
        assertThat(lido.path("sequence").longValue()).isEqualTo(ultimo.sequence());
      }
      assertThat(lido.path("total_cents").longValue()).isEqualTo(pedido.totalCentavos());
      assertThat(lido.path("customer_email").stringValue()).isEqualTo(pedido.clienteEmail());
    }
  }

  @Test
  void updatedSinceFiltraPorInstanteInclusive() throws Exception {
    iniciar(Instant.MAX);
    List<Instant> instantes = PEDIDOS.stream().map(p -> p.ultimo().ocorridoEm()).sorted().toList();
    Instant meio = instantes.get(instantes.size() / 2);

    List<JsonNode> lidos = lerTudo(meio, 5);

    assertThat(lidos)
        .hasSize((int) instantes.stream().filter(i -> !i.isBefore(meio)).count())
        .allMatch(p -> !Instant.parse(p.path("updated_at").stringValue()).isBefore(meio));
  }

  @Test
  void mostraCadaPedidoComoEleEstaNoMomentoDaConsulta() throws Exception {
    // Halfway through the timeline: some orders do not exist yet, others are mid-lifecycle.
    EventoDaLoja referencia = PEDIDOS.get(PEDIDOS.size() / 2).eventos().get(0);
    Instant agora = referencia.ocorridoEm();
    iniciar(agora);

    List<JsonNode> lidos = lerTudo(INICIO.minusSeconds(1), 100);

    List<String> esperados = new ArrayList<>();
    for (PedidoGerado pedido : PEDIDOS) {
      EventoDaLoja atual = null;
      for (EventoDaLoja evento : pedido.eventos()) {
        if (!evento.ocorridoEm().isAfter(agora)) {
          atual = evento;
        }
      }
      if (atual != null) {
        esperados.add(pedido.id() + "=" + atual.status().statusDaApi());
      }
    }
    assertThat(
            lidos.stream()
                .map(p -> p.path("id").stringValue() + "=" + p.path("status").stringValue()))
        .containsExactlyInAnyOrderElementsOf(esperados);
    assertThat(esperados).hasSizeLessThan(PEDIDOS.size());
  }

  @Test
  void registraCadaVistaServidaComOIdQueOAplicadorUsa() throws Exception {
    iniciar(Instant.MAX);

    List<JsonNode> lidos = lerTudo(INICIO.minusSeconds(1), 9);

    Set<String> idsDoAplicador = new HashSet<>();
    for (JsonNode lido : lidos) {
      // The reconciliation contract, written out from the JSON as the applier reads it.
      String versao =
          lido.has("sequence")
              ? "s" + lido.path("sequence").longValue()
              : lido.path("updated_at").stringValue();
      idsDoAplicador.add(
          "api:"
              + lido.path("id").stringValue()
              + ":"
              + versao
              + ":"
              + lido.path("status").stringValue());
    }
    assertThat(servidas.todas())
        .extracting(VistaDoPedido::eventoId)
        .containsExactlyInAnyOrderElementsOf(idsDoAplicador);
  }

  @Test
  void semVerdadeAindaNaoHaPedidos() throws Exception {
    api = ApiDaLoja.iniciar(null, 0, TOKEN, () -> Verdade.VAZIA, servidas, Clock.systemUTC());

    assertThat(lerTudo(INICIO, 10)).isEmpty();
  }

  private void iniciar(Instant agora) {
    Verdade verdade = new Verdade(PEDIDOS);
    api =
        ApiDaLoja.iniciar(
            null, 0, TOKEN, () -> verdade, servidas, Clock.fixed(agora, ZoneOffset.UTC));
  }

  private List<JsonNode> lerTudo(Instant desde, int limite) throws Exception {
    List<JsonNode> pedidos = new ArrayList<>();
    String pagina = null;
    int paginas = 0;
    do {
      String consulta =
          "/orders?updated_since="
              + URLEncoder.encode(desde.toString(), StandardCharsets.UTF_8)
              + "&limit="
              + limite
              + (pagina == null
                  ? ""
                  : "&page_token=" + URLEncoder.encode(pagina, StandardCharsets.UTF_8));
      HttpResponse<String> resposta = get(consulta, "Bearer " + TOKEN);
      assertThat(resposta.statusCode()).isEqualTo(200);
      assertThat(resposta.headers().firstValue("Content-Type")).contains("application/json");
      JsonNode corpo = json.readTree(resposta.body());
      JsonNode proxima = corpo.path("next");
      assertThat(corpo.has("next")).isTrue();
      corpo.path("orders").forEach(pedidos::add);
      if (!proxima.isNull()) {
        assertThat(corpo.path("orders").size()).isEqualTo(limite);
      }
      pagina = proxima.isNull() ? null : proxima.stringValue();
      assertThat(++paginas).isLessThan(1000);
    } while (pagina != null);
    return pedidos;
  }

  private HttpResponse<String> get(String caminho, String autorizacao)
      throws IOException, InterruptedException {
    HttpRequest.Builder requisicao = HttpRequest.newBuilder(URI.create(api.url() + caminho));
    if (autorizacao != null) {
      requisicao.header("Authorization", autorizacao);
    }
    return http.send(requisicao.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static PedidoGerado pedido(String id) {
    return PEDIDOS.stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
  }
}
