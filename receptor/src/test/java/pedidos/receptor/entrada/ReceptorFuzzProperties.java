package pedidos.receptor.entrada;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.Entregas;
import pedidos.receptor.JsonAleatorio;
import pedidos.receptor.ReceptorApplication;

/**
 * Fuzzing the running receptor over HTTP: random bytes, random JSON, random headers and content
 * types, signed or not. While the database is up it never answers 5xx, and nothing unsigned is ever
 * stored, in the inbox or in quarantine.
 *
 * <p>jqwik has no Spring extension here, so the application is started once for the container.
 */
class ReceptorFuzzProperties {

  private static final PostgresLocal postgres = BancoDeTeste.compartilhado();
  private static ConfigurableApplicationContext aplicacao;
  private static Entregas entregas;
  private static Connection conexao;

  @BeforeContainer
  static void iniciar() throws SQLException {
    aplicacao =
        new SpringApplicationBuilder(ReceptorApplication.class)
            .run(
                "--spring.datasource.url=" + postgres.jdbcUrl(),
                "--spring.datasource.username=" + PapelNoBanco.RECEPTOR.nome(),
                "--spring.datasource.password=" + PapelNoBanco.RECEPTOR.senhaLocal(),
                "--receptor.segredos=" + Entregas.SEGREDOS,
                // Small enough that random bodies sometimes cross it.
                "--receptor.tamanho-maximo-do-corpo=2KB",
                "--server.port=0",
                "--management.server.port=0");
    conexao = BancoDeTeste.conectar(postgres);
    entregas = new Entregas(((WebServerApplicationContext) aplicacao).getWebServer().getPort());
  }

  @AfterContainer
  static void parar() throws SQLException {
    if (conexao != null) {
      conexao.close();
    }
    if (aplicacao != null) {
      aplicacao.close();
    }
  }

  @Provide
  Arbitrary<byte[]> bytes() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(3000);
  }

  @Provide
  Arbitrary<String> jsons() {
    Arbitrary<String> eventosQuaseValidos =
        Combinators.combine(
                JsonAleatorio.textos().flatMap(JsonAleatorio::texto),
                JsonAleatorio.textos().flatMap(JsonAleatorio::texto),
                JsonAleatorio.valores(2),
                JsonAleatorio.valores(2))
            .as(
                (id, tipo, dataId, extra) ->
                    "{\"id\": "
                        + id
                        + ", \"type\": "
                        + tipo
                        + ", \"data\": {\"id\": "
                        + dataId
                        + "}, \"extra\": "
                        + extra
                        + "}");
    return Arbitraries.oneOf(JsonAleatorio.valores(4), eventosQuaseValidos);
  }

  @Provide
  Arbitrary<String> tiposDeConteudo() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "application/json",
            "application/json; charset=utf-8",
            "application/json;charset=ISO-8859-1",
            "application/vnd.loja+json",
            "APPLICATION/JSON",
            "application/*",
            "*/*",
            "text/plain",
            "multipart/form-data; boundary=x",
            "application/x-www-form-urlencoded",
            "application/json; =",
            "json",
            ";;;",
            ""),
        Arbitraries.strings()
            .ascii()
            .ofMaxLength(30)
            .filter(s -> s.chars().allMatch(c -> c >= 0x20 && c < 0x7f)));
  }

  @Provide
  Arbitrary<Map<String, String>> cabecalhos() {
    Arbitrary<String> nomes =
        Arbitraries.oneOf(
            Arbitraries.of(
                "Accept",
                "Accept-Charset",
                "Accept-Encoding",
                "Content-Encoding",
                "Content-Language",
                "Authorization",
                "Cookie",
                "Origin",
                "Range",
                "If-Match",
                "X-Forwarded-For",
                "X-Http-Method-Override",
                "x-loja-signature"),
            Arbitraries.strings()
                .withCharRange('a', 'z')
                .withChars('-')
                .ofMinLength(1)
                .ofMaxLength(12)
                .filter(
                    nome ->
                        !List.of(
                                "connection",
                                "content-length",
                                "expect",
                                "host",
                                "upgrade",
                                "transfer-encoding",
                                "te",
                                "trailer",
                                "content-type")
                            .contains(nome)));
    Arbitrary<String> valores =
        Arbitraries.oneOf(
            Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(60).map(String::strip),
            Arbitraries.of(
                "text/html",
                "application/xml",
                "*/*",
                "gzip",
                "bytes=0-1",
                "invalid/",
                "a".repeat(64)));
    return Arbitraries.maps(nomes, valores).ofMaxSize(4);
  }

  @Property(tries = 250)
  void bytesAleatoriosNuncaDao5xxENemSemAssinaturaSaoGuardados(
      @ForAll("bytes") byte[] corpo,
      @ForAll boolean assinado,
      @ForAll("tiposDeConteudo") String tipo,
      @ForAll("cabecalhos") Map<String, String> cabecalhos) {
    verificar(corpo, assinado, tipo, cabecalhos);
  }

  @Property(tries = 400)
  void jsonAleatorioNuncaDa5xxENemSemAssinaturaEGuardado(
      @ForAll("jsons") String json,
      @ForAll boolean assinado,
      @ForAll("cabecalhos") Map<String, String> cabecalhos) {
    verificar(json.getBytes(StandardCharsets.UTF_8), assinado, "application/json", cabecalhos);
  }

  private static void verificar(
      byte[] corpo, boolean assinado, String tipo, Map<String, String> cabecalhos) {
    long eventos = BancoDeTeste.contar(conexao, "SELECT count(*) FROM webhook_eventos");
    long quarentena = BancoDeTeste.contar(conexao, "SELECT count(*) FROM webhook_quarentena");
    HttpRequest.Builder requisicao =
        entregas.requisicao().POST(HttpRequest.BodyPublishers.ofByteArray(corpo));
    cabecalhos.forEach(requisicao::header);
    if (!tipo.isEmpty()) {
      requisicao.setHeader("Content-Type", tipo);
    }
    if (assinado) {
      requisicao.setHeader("x-loja-signature", Entregas.assinar(corpo));
    }

    HttpResponse<String> resposta = entregas.enviar(requisicao.build());

    assertThat(resposta.statusCode()).as(resposta.body()).isBetween(200, 499);
    if (resposta.statusCode() != 200) {
      assertThat(resposta.headers().firstValue("Content-Type").orElse(""))
          .as("status %d", resposta.statusCode())
          .startsWith("application/problem+json");
    }
    // setHeader above replaces any random x-loja-signature: signed means validly signed.
    if (!assinado) {
      assertThat(resposta.statusCode()).isNotEqualTo(200);
      assertThat(BancoDeTeste.contar(conexao, "SELECT count(*) FROM webhook_eventos"))
          .isEqualTo(eventos);
      assertThat(BancoDeTeste.contar(conexao, "SELECT count(*) FROM webhook_quarentena"))
          .isEqualTo(quarentena);
    }
  }
}
