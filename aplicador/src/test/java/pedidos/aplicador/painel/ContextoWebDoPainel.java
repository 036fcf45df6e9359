package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.aplicador.TopicosDeTeste;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.testes.InfraDeTeste;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One Spring context with the web server on a random port and one operator's login, for the ops
 * pages' tests, on the JVM's shared PostgreSQL and Kafka: the same base class gives the same
 * context key, so the context is built once for all of them (and once per PostgreSQL version in CI)
 * instead of once per class. A class that needs other settings adds them with
 * {@code @TestPropertySource} and gets a context of its own, with the same login and helpers.
 *
 * <p>The context is shared: the panel's round ({@code aplicador.painel.cache}) may have been read
 * by another class a moment ago, so a test that must see its own rows there awaits them.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "aplicador.tarefas-periodicas=false",
      "management.server.port=0",
      "aplicador.ops.usuario=" + ContextoWebDoPainel.USUARIO,
      "aplicador.ops.senha=" + ContextoWebDoPainel.SENHA
    })
abstract class ContextoWebDoPainel {

  static final String USUARIO = "operadora";
  static final String SENHA = "senha-de-teste-do-painel";

  @DynamicPropertySource
  static void infra(DynamicPropertyRegistry registro) {
    InfraDeTeste.registrar(registro, PapelNoBanco.APLICADOR);
    // The relay's, in a deployment: the applier checks them at start and creates none.
    TopicosDeTeste.comoORelay();
  }

  @LocalServerPort int porta;

  final HttpClient http = HttpClient.newHttpClient();
  final JsonMapper json = JsonMapper.builder().build();

  /** The database's administrator: what the applier's role rightly cannot do and a test must. */
  static JdbcClient comoAdministrador() {
    return JdbcClient.create(InfraLocal.compartilhada().postgres().dataSource());
  }

  static String autorizacao(String usuario, String senha) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((usuario + ":" + senha).getBytes(StandardCharsets.UTF_8));
  }

  /** A page's address with the operator's login in it, as a browser takes it through its prompt. */
  String comLogin(String caminho) {
    return "http://" + USUARIO + ":" + SENHA + "@127.0.0.1:" + porta + caminho;
  }

  /** As the operator; fails unless the answer is 200. */
  JsonNode getJson(String caminho) throws Exception {
    HttpResponse<String> resposta = get(caminho, USUARIO, SENHA);
    assertThat(resposta.statusCode()).as(caminho + ": " + resposta.body()).isEqualTo(200);
    return json.readTree(resposta.body());
  }

  /** Anonymous when {@code usuario} is null. */
  HttpResponse<String> get(String caminho, String usuario, String senha) throws Exception {
    return get(porta, caminho, usuario, senha);
  }

  HttpResponse<String> get(int portaAlvo, String caminho, String usuario, String senha)
      throws Exception {
    HttpRequest.Builder pedido =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + portaAlvo + caminho))
            .timeout(Duration.ofSeconds(30));
    if (usuario != null) {
      pedido.header("Authorization", autorizacao(usuario, senha));
    }
    return http.send(pedido.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** An action as the operator, with the header that tells it from a cross-site request. */
  HttpResponse<String> post(String caminho) throws Exception {
    return post(caminho, null);
  }

  /** The same with a text/plain body, none when null. */
  HttpResponse<String> post(String caminho, String corpo) throws Exception {
    return enviar(caminho, USUARIO, SENHA, true, corpo);
  }

  /**
   * @param usuario anonymous when null
   * @param cabecalho whether to send {@link AcoesDasOperacoes#CABECALHO}
   * @param corpo sent as text/plain; none when null
   */
  HttpResponse<String> enviar(
      String caminho, String usuario, String senha, boolean cabecalho, String corpo)
      throws Exception {
    HttpRequest.Builder pedido =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + porta + caminho))
            .timeout(Duration.ofSeconds(30));
    if (corpo == null) {
      pedido.POST(HttpRequest.BodyPublishers.noBody());
    } else {
      pedido.POST(HttpRequest.BodyPublishers.ofString(corpo)).header("Content-Type", "text/plain");
    }
    if (usuario != null) {
      pedido.header("Authorization", autorizacao(usuario, senha));
    }
    if (cabecalho) {
      pedido.header(AcoesDasOperacoes.CABECALHO, "1");
    }
    return http.send(pedido.build(), HttpResponse.BodyHandlers.ofString());
  }
}
