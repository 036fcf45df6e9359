package pedidos.receptor.entrada;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.infra.PostgresLocal;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.Entregas;
import pedidos.receptor.ReceptorApplication;

/**
 * What the receptor promises over HTTP, whatever the write mode: each subclass runs it all against
 * one mode, on a real PostgreSQL and a real Tomcat.
 */
@SpringBootTest(
    classes = {ReceptorApplication.class, ContratoDoReceptor.Servidores.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "receptor.segredos=" + Entregas.SEGREDOS,
      "management.server.port=0",
      "receptor.ops.usuario=" + ContratoDoReceptor.USUARIO,
      "receptor.ops.senha=" + ContratoDoReceptor.SENHA
    })
abstract class ContratoDoReceptor {

  static final String USUARIO = "operador";
  static final String SENHA = "senha-de-teste-do-receptor";

  static final int MIB = 1024 * 1024;

  @DynamicPropertySource
  static void banco(DynamicPropertyRegistry registro) {
    BancoDeTeste.registrar(registro);
  }

  @LocalServerPort int porta;
  @LocalManagementPort int portaDeGestao;
  @Autowired DataSource dataSource;

  final PostgresLocal postgres = BancoDeTeste.compartilhado();
  final String prefixo = "evt_" + UUID.randomUUID() + "_";
  Entregas entregas;

  @BeforeEach
  void preparar() {
    entregas = new Entregas(porta);
  }

  /**
   * A session whose client went silent (a partition, a frozen NAT entry) is ended by the server:
   * inside a transaction after 10 s, with its locks; idle after 5 min (README, runbook).
   */
  @Test
  void oServidorEncerraAsSessoesDoPoolQueSeCalam() {
    JdbcClient jdbc = JdbcClient.create(dataSource);
    assertThat(jdbc.sql("SHOW idle_in_transaction_session_timeout").query(String.class).single())
        .isEqualTo("10s");
    assertThat(jdbc.sql("SHOW idle_session_timeout").query(String.class).single())
        .isEqualTo("5min");
  }

  @Test
  void eventoValidoEGravadoERespondido200DepoisDoCommit() {
    String id = prefixo + "1";
    String json = Entregas.evento(id, "ord_42", "order.paid");

    HttpResponse<String> resposta = entregas.enviar(json);

    assertThat(resposta.statusCode()).isEqualTo(200);
    assertThat(resposta.body()).contains("\"inserido\"");
    // Read on another connection right after the 200: the row is committed, not just written.
    assertThat(
            BancoDeTeste.texto(
                postgres,
                "SELECT recurso_id || '|' || tipo || '|' || (payload = ?::jsonb)"
                    + " FROM webhook_eventos WHERE evento_id = ?",
                json,
                id))
        .isEqualTo("ord_42|order.paid|true");
  }

  @Test
  void reentregaIgualE200EGravadaUmaVez() {
    String json = Entregas.evento(prefixo + "dup");
    double antes = metrica("receptor_eventos_duplicados_total");

    assertThat(entregas.enviar(json).body()).contains("inserido");
    HttpResponse<String> segunda = entregas.enviar(json);
    // Same event, other whitespace and key order: still the same body as jsonb.
    HttpResponse<String> terceira =
        entregas.enviar(json.replace("\"id\": ", "\"id\":").replace(", \"type\"", ",\"type\""));

    assertThat(segunda.statusCode()).isEqualTo(200);
    assertThat(segunda.body()).contains("duplicado");
    assertThat(terceira.body()).contains("duplicado");
    assertThat(linhas(prefixo + "dup")).isEqualTo(1);
    assertThat(metrica("receptor_eventos_duplicados_total")).isEqualTo(antes + 2);
  }

  @Test
  void mesmoIdComCorpoDiferenteE200ConflitoEOPrimeiroCorpoFica() {
    String id = prefixo + "conflito";
    String primeiro = Entregas.evento(id, "ord_1", "order.paid");
    String segundo = Entregas.evento(id, "ord_1", "order.canceled");
    double antes = metrica("receptor_eventos_conflitos_total");

    entregas.enviar(primeiro);
    HttpResponse<String> resposta = entregas.enviar(segundo);

    assertThat(resposta.statusCode()).isEqualTo(200);
    assertThat(resposta.body()).contains("conflito");
    assertThat(linhas(id)).isEqualTo(1);
    assertThat(
            BancoDeTeste.texto(
                postgres, "SELECT payload->>'type' FROM webhook_eventos WHERE evento_id = ?", id))
        .isEqualTo("order.paid");
    assertThat(metrica("receptor_eventos_conflitos_total")).isEqualTo(antes + 1);
  }

  @Test
  void reentregaDeUmEventoAntigoJaRedigidoAindaEDuplicadoENaoConflito() throws Exception {
    String id = prefixo + "redigido";
    String json = Entregas.evento(id, "ord_7", "order.paid");
    assertThat(entregas.enviar(json).body()).contains("inserido");
    // What the applier's retention job does to an old applied row (Retencao, migration V12): the
    // payload reduced to what the fold reads, the digest of the body as first stored kept.
    try (var conexao = BancoDeTeste.conectar(postgres);
        var comando =
            conexao.prepareStatement(
                "UPDATE webhook_eventos SET payload_sha256 = resumo_do_corpo(payload),"
                    + " payload = payload_redigido(tipo, payload, NULL), redigido_em = now()"
                    + " WHERE evento_id = ?")) {
      comando.setString(1, id);
      assertThat(comando.executeUpdate()).isEqualTo(1);
    }
    assertThat(
            BancoDeTeste.texto(
                postgres, "SELECT payload::text FROM webhook_eventos WHERE evento_id = ?", id))
        .doesNotContain("cliente@example.com");
    double duplicados = metrica("receptor_eventos_duplicados_total");
    double conflitos = metrica("receptor_eventos_conflitos_total");

    HttpResponse<String> mesma = entregas.enviar(json);
    // The same event with other whitespace and key order: the same body as jsonb, so the same
    // digest of PostgreSQL's text of it.
    HttpResponse<String> reformatada =
        entregas.enviar(json.replace("\"id\": ", "\"id\":").replace(", \"type\"", ",\"type\""));
    HttpResponse<String> outra = entregas.enviar(Entregas.evento(id, "ord_7", "order.canceled"));

    assertThat(mesma.statusCode()).isEqualTo(200);
    assertThat(mesma.body()).contains("duplicado");
    assertThat(reformatada.body()).contains("duplicado");
    assertThat(outra.statusCode()).isEqualTo(200);
    assertThat(outra.body()).contains("conflito");
    assertThat(metrica("receptor_eventos_duplicados_total")).isEqualTo(duplicados + 2);
    assertThat(metrica("receptor_eventos_conflitos_total")).isEqualTo(conflitos + 1);
    assertThat(linhas(id)).isEqualTo(1);
    assertThat(
            BancoDeTeste.texto(
                postgres, "SELECT payload::text FROM webhook_eventos WHERE evento_id = ?", id))
        .as("the redacted row stays as it is")
        .doesNotContain("cliente@example.com");
  }

  @Test
  void qualquerUmDosSegredosVerifica() {
    byte[] corpo = Entregas.evento(prefixo + "antigo").getBytes(StandardCharsets.UTF_8);
    HttpRequest requisicao =
        entregas
            .requisicao()
            .header("Content-Type", "application/json")
            .header("x-loja-signature", Entregas.assinar(corpo, Entregas.SEGREDO_ANTIGO))
            .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
            .build();

    assertThat(entregas.enviar(requisicao).statusCode()).isEqualTo(200);
  }

  static Stream<Arguments> assinaturasInvalidas() {
    return Stream.of(
        Arguments.of("ausente", (Assinador) corpo -> null),
        Arguments.of("vazia", (Assinador) corpo -> ""),
        Arguments.of("outro segredo", (Assinador) corpo -> Entregas.assinar(corpo, "outro")),
        Arguments.of("maiusculas", (Assinador) corpo -> Entregas.assinar(corpo).toUpperCase()),
        Arguments.of("cortada", (Assinador) corpo -> Entregas.assinar(corpo).substring(2)),
        Arguments.of("com prefixo", (Assinador) corpo -> "sha256=" + Entregas.assinar(corpo)),
        Arguments.of(
            "de outro corpo",
            (Assinador) corpo -> Entregas.assinar("{}".getBytes(StandardCharsets.UTF_8))),
        Arguments.of("lixo", (Assinador) corpo -> "zz".repeat(32)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("assinaturasInvalidas")
  void assinaturaInvalidaE401ENadaEGravado(String caso, Assinador assinador) {
    String id = prefixo + "401";
    byte[] corpo = Entregas.evento(id).getBytes(StandardCharsets.UTF_8);
    long quarentenaAntes = quarentena();
    double falhasAntes = metrica("receptor_assinaturas_invalidas_total");
    HttpRequest.Builder requisicao =
        entregas
            .requisicao()
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(corpo));
    String assinatura = assinador.assinar(corpo);
    if (assinatura != null) {
      requisicao.header("x-loja-signature", assinatura);
    }

    HttpResponse<String> resposta = entregas.enviar(requisicao.build());

    assertThat(resposta.statusCode()).isEqualTo(401);
    assertProblema(resposta, "assinatura_invalida");
    assertThat(resposta.headers().firstValue("WWW-Authenticate")).isPresent();
    assertThat(resposta.body()).doesNotContain(Entregas.SEGREDO).doesNotContain("Exception");
    assertThat(linhas(id)).isZero();
    assertThat(quarentena()).isEqualTo(quarentenaAntes);
    assertThat(metrica("receptor_assinaturas_invalidas_total")).isEqualTo(falhasAntes + 1);
  }

  static Stream<Arguments> corposInvalidos() {
    String ok = "\"type\": \"order.paid\", \"data\": {\"id\": \"ord_1\"}";
    return Stream.of(
        Arguments.of("nao e JSON", "isto nao e json", "json_invalido"),
        Arguments.of("vazio", "", "nao_e_objeto"),
        Arguments.of("JSON cortado", "{\"id\": \"evt_1\", " + ok.substring(0, 10), "json_invalido"),
        Arguments.of("array", "[{\"id\": \"evt_1\"}]", "nao_e_objeto"),
        Arguments.of("texto", "\"evt_1\"", "nao_e_objeto"),
        Arguments.of("null", "null", "nao_e_objeto"),
        Arguments.of("dois objetos", "{\"id\": \"a\", " + ok + "} {}", "json_invalido"),
        Arguments.of("lixo depois", "{\"id\": \"a\", " + ok + "} x", "json_invalido"),
        Arguments.of("sem id", "{" + ok + "}", "campo_ausente"),
        Arguments.of("id numero", "{\"id\": 7, " + ok + "}", "campo_nao_texto"),
        Arguments.of("id null", "{\"id\": null, " + ok + "}", "campo_nao_texto"),
        Arguments.of("id objeto", "{\"id\": {\"a\": 1}, " + ok + "}", "campo_nao_texto"),
        Arguments.of("id vazio", "{\"id\": \"\", " + ok + "}", "campo_vazio"),
        Arguments.of("id em branco", "{\"id\": \"   \", " + ok + "}", "campo_vazio"),
        Arguments.of(
            "id absurdo",
            "{\"id\": \"" + "x".repeat(201) + "\", " + ok + "}",
            "campo_longo_demais"),
        Arguments.of("id repetido", "{\"id\": \"a\", \"id\": \"b\", " + ok + "}", "json_invalido"),
        Arguments.of("sem type", "{\"id\": \"a\", \"data\": {\"id\": \"ord_1\"}}", "campo_ausente"),
        Arguments.of(
            "type numero",
            "{\"id\": \"a\", \"type\": 1, \"data\": {\"id\": \"ord_1\"}}",
            "campo_nao_texto"),
        Arguments.of("sem data", "{\"id\": \"a\", \"type\": \"order.paid\"}", "campo_ausente"),
        Arguments.of(
            "data texto",
            "{\"id\": \"a\", \"type\": \"order.paid\", \"data\": \"ord_1\"}",
            "campo_nao_objeto"),
        Arguments.of(
            "sem data.id",
            "{\"id\": \"a\", \"type\": \"order.paid\", \"data\": {\"status\": \"paid\"}}",
            "campo_ausente"),
        Arguments.of(
            "data.id numero",
            "{\"id\": \"a\", \"type\": \"order.paid\", \"data\": {\"id\": 1}}",
            "campo_nao_texto"),
        Arguments.of(
            "data.id so em data.items",
            "{\"id\": \"a\", \"type\": \"t\", \"data\": {\"items\": [{\"id\": \"x\"}]}}",
            "campo_ausente"),
        Arguments.of(
            "nulo num texto aninhado",
            "{\"id\": \"a\", " + ok + ", \"extra\": {\"x\": [\"a\\u0000b\"]}}",
            "caractere_nulo"),
        Arguments.of(
            "nulo numa chave", "{\"id\": \"a\", " + ok + ", \"k\\u0000\": 1}", "caractere_nulo"),
        Arguments.of(
            "surrogate isolado",
            "{\"id\": \"a\", " + ok + ", \"x\": \"\\ud800\"}",
            "surrogate_isolado"),
        Arguments.of(
            "numero que o jsonb nao guarda",
            "{\"id\": \"a\", " + ok + ", \"total\": 1e1000000}",
            "numero_fora_da_escala"),
        // Issue 11: valid JSON that jsonb stores but later stages could not read back.
        Arguments.of(
            "numero que o jsonb escreve com 1.001 digitos",
            "{\"id\": \"a\", " + ok + ", \"x\": 1e1000}",
            "numero_fora_da_escala"),
        Arguments.of(
            "numero longo demais",
            "{\"id\": \"a\", " + ok + ", \"x\": " + "9".repeat(101) + "}",
            "numero_longo_demais"),
        Arguments.of(
            "aninhado alem do envelope",
            "{\"id\": \"a\", " + ok + ", \"x\": " + "[".repeat(64) + "]".repeat(64) + "}",
            "profundidade_excessiva"),
        Arguments.of(
            "chave longa demais",
            "{\"id\": \"a\", " + ok + ", \"" + "k".repeat(1001) + "\": 1}",
            "nome_longo_demais"),
        Arguments.of(
            "muitos numeros que o jsonb expande",
            "{\"id\": \"a\", " + ok + ", \"x\": [" + "1e400,".repeat(6000) + "1]}",
            "grande_demais_no_banco"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corposInvalidos")
  void corpoAssinadoInvalidoE400EVaiParaAQuarentena(String caso, String json, String motivo) {
    // Unique bytes per run: the quarantine keeps one row per distinct body.
    String unico = json.isEmpty() ? json : json + " ".repeat(new Random().nextInt(1, 500));
    byte[] corpo = unico.getBytes(StandardCharsets.UTF_8);
    long eventosAntes = BancoDeTeste.contar(postgres, "SELECT count(*) FROM webhook_eventos");

    HttpResponse<String> resposta = entregas.enviar(corpo);

    assertThat(resposta.statusCode()).isEqualTo(400);
    assertProblema(resposta, motivo);
    assertThat(BancoDeTeste.contar(postgres, "SELECT count(*) FROM webhook_eventos"))
        .isEqualTo(eventosAntes);
    assertThat(
            BancoDeTeste.texto(
                postgres, "SELECT motivo FROM webhook_quarentena WHERE corpo = ?", corpo))
        .startsWith(motivo);
  }

  @Test
  void utf8InvalidoE400EOsBytesExatosFicamNaQuarentena() {
    byte[] corpo = new byte[] {'{', '"', 'i', 'd', '"', ':', '"', (byte) 0xC3, '(', '"', '}'};

    HttpResponse<String> resposta = entregas.enviar(corpo);

    assertThat(resposta.statusCode()).isEqualTo(400);
    assertProblema(resposta, "utf8_invalido");
    assertThat(
            BancoDeTeste.bytes(
                postgres, "SELECT corpo FROM webhook_quarentena WHERE corpo = ?", corpo))
        .isEqualTo(corpo);
  }

  @Test
  void oMesmoCorpoRuimReentregueFicaNumaLinhaSoDaQuarentena() {
    byte[] corpo = ("{\"id\": \"" + prefixo + "\"}").getBytes(StandardCharsets.UTF_8);

    entregas.enviar(corpo);
    entregas.enviar(corpo);

    assertThat(
            BancoDeTeste.texto(
                postgres,
                "SELECT count(*) || '|' || max(recebimentos) || '|' || max(evento_id)"
                    + " FROM webhook_quarentena WHERE corpo = ?",
                corpo))
        .isEqualTo("1|2|" + prefixo);
  }

  @ParameterizedTest
  @ValueSource(strings = {"text/plain", "application/x-www-form-urlencoded", "application/xml"})
  void tipoDeConteudoQueNaoEJsonE415(String tipo) {
    byte[] corpo = Entregas.evento(prefixo + "415").getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> resposta =
        entregas.enviar(
            entregas
                .requisicao()
                .header("Content-Type", tipo)
                .header("x-loja-signature", Entregas.assinar(corpo))
                .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
                .build());

    assertThat(resposta.statusCode()).isEqualTo(415);
    assertThat(resposta.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(linhas(prefixo + "415")).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"application/json\"", "\"/!", "nada"})
  void contentTypeQueNemSeLeE415ENao500(String tipo) {
    byte[] corpo = Entregas.evento(prefixo + "415q").getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> resposta =
        entregas.enviar(
            entregas
                .requisicao()
                .header("Content-Type", tipo)
                .header("Accept", "\"application/json\"")
                .header("x-loja-signature", Entregas.assinar(corpo))
                .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
                .build());

    assertThat(resposta.statusCode()).isEqualTo(415);
    assertThat(resposta.headers().firstValue("Content-Type")).hasValue("application/problem+json");
  }

  @Test
  void acceptQueNaoCombinaNaoImpedeO200() {
    byte[] corpo = Entregas.evento(prefixo + "accept").getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> resposta =
        entregas.enviar(
            entregas
                .requisicao()
                .header("Content-Type", "application/json")
                .header("Accept", "text/html")
                .header("x-loja-signature", Entregas.assinar(corpo))
                .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
                .build());

    assertThat(resposta.statusCode()).isEqualTo(200);
    assertThat(linhas(prefixo + "accept")).isEqualTo(1);
  }

  @Test
  void semContentTypeE415() {
    String cabecalhos =
        "POST /webhooks/loja HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n"
            + "x-loja-signature: "
            + Entregas.assinar("{}".getBytes(StandardCharsets.UTF_8))
            + "\r\nConnection: close\r\n\r\n";

    String resposta = entregas.bruto(cabecalhos, saida -> saida.write("{}".getBytes()));

    assertThat(resposta).startsWith("HTTP/1.1 415");
  }

  @Test
  void jsonComSufixoMaisJsonEAceito() {
    String id = prefixo + "cloudevents";
    byte[] corpo = Entregas.evento(id).getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> resposta =
        entregas.enviar(
            entregas
                .requisicao()
                .header("Content-Type", "application/vnd.loja+json; charset=utf-8")
                .header("x-loja-signature", Entregas.assinar(corpo))
                .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
                .build());

    assertThat(resposta.statusCode()).isEqualTo(200);
  }

  @ParameterizedTest
  @ValueSource(strings = {"GET", "PUT", "DELETE", "PATCH"})
  void outroMetodoE405(String metodo) {
    byte[] corpo = Entregas.evento(prefixo + "405").getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> resposta =
        entregas.enviar(
            entregas
                .requisicao()
                .header("Content-Type", "application/json")
                .header("x-loja-signature", Entregas.assinar(corpo))
                .method(metodo, HttpRequest.BodyPublishers.ofByteArray(corpo))
                .build());

    assertThat(resposta.statusCode()).isEqualTo(405);
    assertThat(resposta.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(resposta.headers().firstValue("Allow")).hasValueSatisfying(v -> v.contains("POST"));
    assertThat(linhas(prefixo + "405")).isZero();
  }

  @Test
  void contentLengthAcimaDoLimiteE413SemLerOCorpo() {
    String cabecalhos =
        "POST /webhooks/loja HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "x-loja-signature: "
            + "ab".repeat(32)
            + "\r\nContent-Length: "
            + (50L * MIB)
            + "\r\n\r\n";

    // Not one byte of the 50 MiB is sent: the answer can only come from the header.
    String resposta = entregas.bruto(cabecalhos, saida -> {});

    assertThat(resposta).startsWith("HTTP/1.1 413");
    assertThat(resposta).containsIgnoringCase("Content-Type: application/problem+json");
  }

  @Test
  void corpoChunkedAcimaDoLimiteE413AntesDeChegarAoFim() {
    String cabecalhos =
        "POST /webhooks/loja HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "x-loja-signature: "
            + "ab".repeat(32)
            + "\r\nTransfer-Encoding: chunked\r\n\r\n";
    byte[] pedaco = new byte[64 * 1024];
    java.util.Arrays.fill(pedaco, (byte) ' ');

    // 1 MiB + 64 KiB in chunks, and never the last chunk: a server that buffered the whole body
    // before checking would wait for it until the socket timed out.
    String resposta =
        entregas.bruto(
            cabecalhos,
            saida -> {
              for (int i = 0; i < 17; i++) {
                saida.write((Integer.toHexString(pedaco.length) + "\r\n").getBytes());
                saida.write(pedaco);
                saida.write("\r\n".getBytes());
              }
            });

    assertThat(resposta).startsWith("HTTP/1.1 413");
  }

  @Test
  void corpoDeExatamenteUmMibEAceitoEUmByteAMaisE413() {
    String id = prefixo + "1mib";
    String base = Entregas.evento(id);
    String preenchido = base.substring(0, base.length() - 1) + ", \"pad\": \"";
    int falta = MIB - preenchido.length() - 2;
    String exato = preenchido + "x".repeat(falta) + "\"}";
    assertThat(exato.length()).isEqualTo(MIB);

    HttpResponse<String> aceito = entregas.enviar(exato);
    HttpResponse<String> grandeDemais = entregas.enviar(exato + " ");

    assertThat(aceito.statusCode()).isEqualTo(200);
    assertThat(grandeDemais.statusCode()).isEqualTo(413);
    assertProblema(grandeDemais, "corpo_grande_demais");
  }

  @Test
  void milEntregasConcorrentesDeTrezentosEventosDaoTrezentasLinhas() {
    List<byte[]> entregasDoTeste = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      entregasDoTeste.add(Entregas.evento(prefixo + "conc_" + i).getBytes(StandardCharsets.UTF_8));
    }
    Random aleatorio = new Random(7);
    while (entregasDoTeste.size() < 1000) {
      entregasDoTeste.add(entregasDoTeste.get(aleatorio.nextInt(300)));
    }
    Collections.shuffle(entregasDoTeste, aleatorio);
    double duplicadosAntes = metrica("receptor_eventos_duplicados_total");

    List<CompletableFuture<HttpResponse<String>>> respostas =
        entregasDoTeste.stream().map(entregas::enviarAssincrono).toList();
    Map<String, Integer> porResultado = new ConcurrentHashMap<>();
    for (CompletableFuture<HttpResponse<String>> futura : respostas) {
      HttpResponse<String> resposta = futura.join();
      assertThat(resposta.statusCode()).as(resposta.body()).isEqualTo(200);
      porResultado.merge(resultadoDe(resposta.body()), 1, Integer::sum);
    }

    assertThat(
            BancoDeTeste.contar(
                postgres,
                "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ?",
                prefixo + "conc_%"))
        .isEqualTo(300);
    assertThat(porResultado).containsEntry("inserido", 300).containsEntry("duplicado", 700);
    assertThat(metrica("receptor_eventos_duplicados_total")).isEqualTo(duplicadosAntes + 700);
    verificarLinhasPorInsert(metrica("receptor_gravacao_lote_linhas_max"));
  }

  /** Rows per insert statement during the concurrent deliveries, as the mode promises. */
  abstract void verificarLinhasPorInsert(double maximo);

  @Test
  void metricasEmFormatoPrometheusNaPortaDeGestao() {
    entregas.enviar(Entregas.evento(prefixo + "metrica"));

    String prometheus = gestao("/actuator/prometheus");

    assertThat(prometheus)
        .contains("receptor_requisicoes_seconds_bucket{")
        .contains("resultado=\"inserido\"")
        .contains("receptor_eventos_duplicados_total")
        .contains("receptor_eventos_conflitos_total")
        .contains("receptor_assinaturas_invalidas_total")
        .contains("receptor_gravacao_lote_linhas_bucket");
  }

  @Test
  void healthIncluiOBanco() {
    String health = gestao("/actuator/health");

    assertThat(health).contains("\"status\":\"UP\"").contains("\"db\":");
  }

  @Test
  void actuatorSemCredenciaisSoDizOStatusDaSaude() {
    for (String caminho :
        List.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness")) {
      HttpResponse<String> anonimo = gestao(caminho, null, null);

      assertThat(anonimo.statusCode()).as(caminho).isEqualTo(200);
      assertThat(anonimo.body())
          .as(caminho)
          .contains("\"status\":\"UP\"")
          .doesNotContain("components")
          .doesNotContain("details");
    }
    for (String caminho : List.of("/actuator/prometheus", "/actuator/info", "/actuator")) {
      HttpResponse<String> anonimo = gestao(caminho, null, null);
      assertThat(anonimo.statusCode()).as(caminho).isEqualTo(401);
      assertThat(anonimo.body()).as(caminho).doesNotContain("receptor_");
    }
    assertThat(gestao("/actuator/prometheus", USUARIO, SENHA + "x").statusCode()).isEqualTo(401);
    assertThat(gestao("/actuator/prometheus", USUARIO, SENHA).statusCode()).isEqualTo(200);
  }

  @Test
  void oWebhookNaoPassaPorFiltroDeSeguranca() {
    HttpResponse<String> resposta = entregas.enviar(Entregas.evento(prefixo + "sem-filtro"));

    assertThat(resposta.statusCode()).isEqualTo(200);
    // Spring Security's filter chain adds these to every response it handles; the actuator's
    // answers carry them, the webhook's must not.
    assertThat(resposta.headers().firstValue("X-Frame-Options")).isEmpty();
    assertThat(resposta.headers().firstValue("X-Content-Type-Options")).isEmpty();
    assertThat(gestao("/actuator/health", null, null).headers().firstValue("X-Frame-Options"))
        .isPresent();
  }

  @Test
  void actuatorSoNaPortaDeGestaoEPresoAoLocalhost() throws Exception {
    HttpResponse<String> naPortaPublica =
        entregas.enviar(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + porta + "/actuator/health"))
                .build());

    assertThat(naPortaPublica.statusCode()).isEqualTo(404);
    assertThat(Servidores.enderecos.get("management"))
        .isEqualTo(InetAddress.getByName("127.0.0.1"));
    assertThat(Servidores.enderecos.get("server")).isNull();
  }

  /** A duplicate, a conflict or a first delivery: its label as the receptor answered it. */
  static String resultadoDe(String corpo) {
    Matcher m = Pattern.compile("\"resultado\"\\s*:\\s*\"([a-z_]+)\"").matcher(corpo);
    return m.find() ? m.group(1) : corpo;
  }

  long linhas(String eventoId) {
    return BancoDeTeste.contar(
        postgres, "SELECT count(*) FROM webhook_eventos WHERE evento_id = ?", eventoId);
  }

  long quarentena() {
    return BancoDeTeste.contar(postgres, "SELECT count(*) FROM webhook_quarentena");
  }

  static void assertProblema(HttpResponse<String> resposta, String motivo) {
    assertThat(resposta.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(resposta.body()).contains("\"motivo\":\"" + motivo + "\"");
    assertThat(resposta.body()).contains("\"status\":" + resposta.statusCode());
  }

  /** The body of an actuator endpoint, read as an operator. */
  String gestao(String caminho) {
    return gestao(caminho, USUARIO, SENHA).body();
  }

  HttpResponse<String> gestao(String caminho, String usuario, String senha) {
    HttpRequest.Builder pedido =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + portaDeGestao + caminho))
            .timeout(Duration.ofSeconds(10));
    if (usuario != null) {
      pedido.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((usuario + ":" + senha).getBytes(StandardCharsets.UTF_8)));
    }
    try {
      return HttpClient.newHttpClient().send(pedido.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Sum of a Prometheus counter over all its tags, 0 when absent. */
  double metrica(String nome) {
    double soma = 0;
    for (String linha : gestao("/actuator/prometheus").split("\n")) {
      if (linha.startsWith(nome + " ") || linha.startsWith(nome + "{")) {
        soma += Double.parseDouble(linha.substring(linha.lastIndexOf(' ') + 1));
      }
    }
    return soma;
  }

  @FunctionalInterface
  interface Assinador {
    String assinar(byte[] corpo);
  }

  /** Where each Tomcat of the context is bound, by server namespace ("server", "management"). */
  @TestConfiguration(proxyBeanMethods = false)
  static class Servidores {
    static final Map<String, InetAddress> enderecos = new ConcurrentHashMap<>();

    @Bean
    Object ouvinteDosServidores() {
      return new Object() {
        @EventListener
        void iniciado(WebServerInitializedEvent evento) {
          String nome = evento.getApplicationContext().getServerNamespace();
          Connector conector = ((TomcatWebServer) evento.getWebServer()).getTomcat().getConnector();
          Object endereco = conector.getProperty("address");
          enderecos.compute(
              nome == null ? "server" : nome,
              (chave, antigo) -> endereco instanceof InetAddress inet ? inet : null);
        }
      };
    }
  }
}
