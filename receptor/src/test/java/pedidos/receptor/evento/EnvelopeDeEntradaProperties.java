package pedidos.receptor.evento;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static pedidos.contrato.EnvelopeDeEntrada.CARACTERES_DE_NOME;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.Entregas;
import pedidos.receptor.JsonExtremo;
import pedidos.receptor.ReceptorApplication;

/**
 * Issue 11, over HTTP against the running receptor and the real PostgreSQL: for valid but extreme
 * events ({@link JsonExtremo}), each is either refused with a 4xx and never stored, or answered 200
 * and stored; and every stored body, read back as PostgreSQL's jsonb text, passes a later stage's
 * Jackson 2 reader sized from the envelope ({@link LeitorPosterior}), wrapped a level deeper as the
 * relay does. What the receptor accepts, the later stages can read.
 */
class EnvelopeDeEntradaProperties {

  private static final PostgresLocal postgres = BancoDeTeste.compartilhado();
  private static final Pattern MOTIVO = Pattern.compile("\"motivo\":\"([a-z_0-9]+)\"");
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

  /** An event id never used before, and an extreme body for it. */
  @Provide
  Arbitrary<Tuple2<String, String>> entregas() {
    return Arbitraries.create(() -> "evt_" + UUID.randomUUID())
        .flatMap(
            id ->
                JsonExtremo.eventos(id, "ord_" + id.substring(4, 12))
                    .map(corpo -> Tuple.of(id, corpo)));
  }

  @Property(tries = 150)
  void oQueOReceptorAceitaAsEtapasSeguintesLeemEOQueRecusaNaoEGuardado(
      @ForAll("entregas") Tuple2<String, String> entrega) {
    String id = entrega.get1();
    byte[] corpo = entrega.get2().getBytes(StandardCharsets.UTF_8);
    // A shrinking step can resend an id: compare with what was there, not with nothing.
    long antes = linhas(id);

    HttpResponse<String> resposta = entregas.enviar(corpo);

    int status = resposta.statusCode();
    Statistics.label("status").collect(status);
    Statistics.label("motivo").collect(motivo(resposta.body()));
    if (status == 200) {
      assertThat(linhas(id)).isEqualTo(1);
      byte[] texto =
          BancoDeTeste.bytes(
              postgres,
              "SELECT convert_to(payload::text, 'UTF8') FROM webhook_eventos WHERE evento_id = ?",
              id);
      LeitorPosterior.lerComoORelay(texto);
    } else {
      assertThat(status).as(resposta.body()).isIn(400, 413);
      assertThat(linhas(id)).isEqualTo(antes);
    }
    // Both outcomes, or the property would hold by refusing (or accepting) everything.
    Statistics.label("status")
        .coverage(
            cobertura -> {
              cobertura.check(200).count(n -> n > 0);
              cobertura.check(400).count(n -> n > 0);
            });
  }

  /**
   * Why {@code BYTES_DE_NOME_DOS_LEITORES} exists: a key of {@code CARACTERES_DE_NOME} characters
   * is inside the envelope, and Jackson 2 reading bytes measures it in bytes.
   */
  @Example
  void umaChaveNoLimiteDoEnvelopeCabeNoLeitorDeBytes() throws Exception {
    byte[] json =
        ("{\"" + "\u4e2d".repeat(CARACTERES_DE_NOME) + "\": 1}").getBytes(StandardCharsets.UTF_8);
    com.fasterxml.jackson.core.JsonFactory pelosCaracteres =
        com.fasterxml.jackson.core.JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder().maxNameLength(CARACTERES_DE_NOME).build())
            .build();

    assertThatThrownBy(() -> lerTudo(pelosCaracteres, json))
        .isInstanceOf(StreamConstraintsException.class);
    lerTudo(LeitorPosterior.JACKSON_2, json);
    assertThat(EnvelopeDeEntrada.BYTES_DE_NOME_DOS_LEITORES).isEqualTo(3 * CARACTERES_DE_NOME);
  }

  private static void lerTudo(com.fasterxml.jackson.core.JsonFactory fabrica, byte[] json)
      throws Exception {
    try (JsonParser parser = fabrica.createParser(json)) {
      while (parser.nextToken() != null) {
        // every token
      }
    }
  }

  private static String motivo(String corpo) {
    Matcher m = MOTIVO.matcher(corpo);
    return m.find() ? m.group(1) : "aceito";
  }

  private static long linhas(String id) {
    return BancoDeTeste.contar(
        conexao, "SELECT count(*) FROM webhook_eventos WHERE evento_id = ?", id);
  }
}
