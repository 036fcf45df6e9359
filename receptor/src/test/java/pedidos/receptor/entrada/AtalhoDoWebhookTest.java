package pedidos.receptor.entrada;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.mock.http.MockHttpOutputMessage;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.Entregas;
import pedidos.receptor.ReceptorApplication;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;

/**
 * The hot path ({@link AtalhoDoWebhook}) answers a delivery as Spring MVC did before it existed,
 * and as MVC still answers whatever the hot path leaves to it. Over a real Tomcat and PostgreSQL;
 * MVC alone through MockMvc, which calls the DispatcherServlet without the servlet filters.
 */
@SpringBootTest(
    classes = ReceptorApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "receptor.segredos=" + Entregas.SEGREDOS,
      "management.server.port=0",
      "receptor.ops.usuario=" + ContratoDoReceptor.USUARIO,
      "receptor.ops.senha=" + ContratoDoReceptor.SENHA
    })
class AtalhoDoWebhookTest {

  @DynamicPropertySource
  static void banco(DynamicPropertyRegistry registro) {
    BancoDeTeste.registrar(registro);
  }

  @LocalServerPort int porta;
  @LocalManagementPort int portaDeGestao;
  @Autowired WebApplicationContext contexto;
  @Autowired RequestMappingHandlerAdapter adaptador;
  @Autowired Problemas problemas;

  private final String prefixo = "evt_" + UUID.randomUUID() + "_";
  private Entregas entregas;
  private MockMvc mvc;

  @BeforeEach
  void preparar() {
    entregas = new Entregas(porta);
    mvc = MockMvcBuilders.webAppContextSetup(contexto).build();
  }

  static Stream<Arguments> recusas() {
    byte[] grande = new byte[ContratoDoReceptor.MIB + 1];
    Arrays.fill(grande, (byte) ' ');
    return Stream.of(
        Arguments.of("sem assinatura", "{}".getBytes(StandardCharsets.UTF_8), false),
        Arguments.of(
            "corpo assinado que nao e objeto",
            ("[\"" + UUID.randomUUID() + "\"]").getBytes(StandardCharsets.UTF_8),
            true),
        Arguments.of("corpo grande demais", grande, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recusas")
  void umaRecusaSaiIgualPeloAtalhoEPeloMvc(String caso, byte[] corpo, boolean assinado)
      throws Exception {
    HttpRequest.Builder http =
        entregas
            .requisicao()
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(corpo));
    var peloMvc = post(EndpointDaLoja.CAMINHO).contentType("application/json").content(corpo);
    if (assinado) {
      http.header("x-loja-signature", Entregas.assinar(corpo));
      peloMvc.header("x-loja-signature", Entregas.assinar(corpo));
    }

    HttpResponse<byte[]> atalho =
        HttpClient.newHttpClient().send(http.build(), HttpResponse.BodyHandlers.ofByteArray());
    MockHttpServletResponse mvcSo = mvc.perform(peloMvc).andReturn().getResponse();

    assertThat(atalho.statusCode()).isEqualTo(mvcSo.getStatus()).isBetween(400, 499);
    for (String cabecalho : List.of("Content-Type", "WWW-Authenticate", "Retry-After")) {
      assertThat(atalho.headers().firstValue(cabecalho).orElse(null))
          .as(cabecalho)
          .isEqualTo(mvcSo.getHeader(cabecalho));
    }
    assertThat(new String(atalho.body(), StandardCharsets.UTF_8))
        .isEqualTo(mvcSo.getContentAsString(StandardCharsets.UTF_8))
        .contains("\"instance\":\"/webhooks/loja\"");
  }

  /**
   * What Spring MVC wrote for a refusal before the hot path, a {@link ProblemDetail} through its
   * JSON message converter, byte for byte: every kind, a detail that needs escaping, and the
   * headers (Retry-After on a 503 only).
   */
  @ParameterizedTest
  @EnumSource(TipoDeRecusa.class)
  void cadaRecusaEOProblemDetailQueOSpringEscreveria(TipoDeRecusa tipo) throws Exception {
    Recusa recusa = new Recusa(tipo, "Detalhe \"citado\" \\ com\ttab, ç e \u0001 </fim>");
    MockHttpServletRequest requisicao = new MockHttpServletRequest("POST", EndpointDaLoja.CAMINHO);
    ProblemDetail comoOSpring =
        ProblemDetail.forStatusAndDetail(tipo.status(), recusa.getMessage());
    comoOSpring.setTitle(tipo.titulo());
    comoOSpring.setProperty("motivo", recusa.motivo());
    // What HttpEntityMethodProcessor sets on a ProblemDetail an @ExceptionHandler returns.
    comoOSpring.setInstance(URI.create(EndpointDaLoja.CAMINHO));

    Problemas.Problema problema = problemas.daRecusa(recusa, requisicao);

    assertThat(new String(problema.corpo(), StandardCharsets.UTF_8))
        .isEqualTo(peloConversorDoMvc(comoOSpring));
    assertThat(problema.status()).isEqualTo(tipo.status().value());
    assertThat(problema.cabecalhos().containsKey("Retry-After"))
        .isEqualTo(tipo.status().value() == 503);
  }

  @Test
  void umaEntregaAindaRecebeOMesmo200() {
    HttpResponse<String> resposta = entregas.enviar(Entregas.evento(prefixo + "200"));

    assertThat(resposta.statusCode()).isEqualTo(200);
    assertThat(resposta.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(resposta.headers().firstValue("Content-Length")).hasValue("24");
    assertThat(resposta.body()).isEqualTo("{\"resultado\":\"inserido\"}");
  }

  @Test
  void headNoCaminhoE405ComAllow() {
    HttpResponse<String> resposta =
        entregas.enviar(
            entregas.requisicao().method("HEAD", HttpRequest.BodyPublishers.noBody()).build());

    assertThat(resposta.statusCode()).isEqualTo(405);
    assertThat(resposta.headers().firstValue("Allow")).hasValue("POST");
    assertThat(resposta.headers().firstValue("Content-Type")).hasValue("application/problem+json");
  }

  /**
   * First in Tomcat's chain for the path, so a delivery passes no other filter: Boot's character
   * encoding filter has the same order, and only the registration order puts this one before it.
   */
  @Test
  void oAtalhoEOPrimeiroFiltroDoCaminho() {
    var tomcat = ((TomcatWebServer) ((WebServerApplicationContext) contexto).getWebServer());
    var aplicacao = (Context) tomcat.getTomcat().getHost().findChildren()[0];

    List<String> noCaminho =
        Arrays.stream(aplicacao.findFilterMaps())
            .filter(
                mapa ->
                    Arrays.asList(mapa.getURLPatterns()).contains("/*")
                        || Arrays.asList(mapa.getURLPatterns()).contains(EndpointDaLoja.CAMINHO))
            .map(FilterMap::getFilterName)
            .toList();

    assertThat(noCaminho).hasSizeGreaterThan(1).first().isEqualTo("atalhoDoWebhook");
  }

  /** Whichever path answered, every request to the path is timed under its outcome. */
  @Test
  void cadaRequisicaoNoCaminhoEMedidaPeloSeuDesfecho() {
    List<String> desfechos =
        List.of(
            "inserido", "assinatura_invalida", "metodo_nao_permitido", "tipo_de_conteudo_invalido");
    double[] antes = desfechos.stream().mapToDouble(this::medidas).toArray();

    entregas.enviar(Entregas.evento(prefixo + "medida"));
    entregas.enviar(
        entregas
            .requisicao()
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build());
    entregas.enviar(entregas.requisicao().PUT(HttpRequest.BodyPublishers.ofString("{}")).build());
    entregas.enviar(
        entregas
            .requisicao()
            .header("Content-Type", "text/plain")
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build());

    for (int i = 0; i < desfechos.size(); i++) {
      assertThat(medidas(desfechos.get(i))).as(desfechos.get(i)).isEqualTo(antes[i] + 1);
    }
  }

  @SuppressWarnings("unchecked")
  private String peloConversorDoMvc(ProblemDetail problema) throws Exception {
    HttpMessageConverter<Object> conversor =
        (HttpMessageConverter<Object>)
            adaptador.getMessageConverters().stream()
                .filter(c -> c.canWrite(ProblemDetail.class, MediaType.APPLICATION_PROBLEM_JSON))
                .findFirst()
                .orElseThrow();
    MockHttpOutputMessage saida = new MockHttpOutputMessage();
    conversor.write(problema, MediaType.APPLICATION_PROBLEM_JSON, saida);
    return saida.getBodyAsString(StandardCharsets.UTF_8);
  }

  /** How many requests {@code receptor_requisicoes_seconds} counted with this outcome. */
  private double medidas(String resultado) {
    HttpRequest pedido =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + portaDeGestao + "/actuator/prometheus"))
            .header(
                "Authorization",
                "Basic "
                    + java.util.Base64.getEncoder()
                        .encodeToString(
                            (ContratoDoReceptor.USUARIO + ":" + ContratoDoReceptor.SENHA)
                                .getBytes(StandardCharsets.UTF_8)))
            .build();
    String prometheus;
    try {
      prometheus =
          HttpClient.newHttpClient().send(pedido, HttpResponse.BodyHandlers.ofString()).body();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return prometheus
        .lines()
        .filter(l -> l.startsWith("receptor_requisicoes_seconds_count{"))
        .filter(l -> l.contains("resultado=\"" + resultado + "\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
