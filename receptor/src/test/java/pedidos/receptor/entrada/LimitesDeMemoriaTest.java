package pedidos.receptor.entrada;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.Entregas;
import pedidos.receptor.ReceptorApplication;

/**
 * The receptor's memory is bounded in bytes, not only in requests: the bodies of all requests in
 * flight ({@code receptor.corpos-em-memoria}) and the group-commit queue ({@code
 * receptor.gravacao.bytes-na-fila}). Over either, a request is answered 503 with Retry-After at
 * once, never 500, and nothing of it is stored; the bytes come back when requests finish.
 */
class LimitesDeMemoriaTest {

  /** A row as the receptor inserts one, written here to hold its lock from outside. */
  private static final String INSERIR =
      """
      INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
      VALUES (?, ?, ?, ?::jsonb)
      ON CONFLICT (evento_id) DO NOTHING
      RETURNING evento_id
      """;

  private static final int CORPO_MAXIMO = 16 * 1024;
  private static final int EM_MEMORIA = 4 * CORPO_MAXIMO;
  private static final PostgresLocal postgres = BancoDeTeste.compartilhado();
  private static ConfigurableApplicationContext aplicacao;
  private static Entregas entregas;
  private static int porta;

  private final String prefixo = "mem_" + UUID.randomUUID() + "_";
  private final List<Socket> parados = new ArrayList<>();

  @BeforeAll
  static void iniciar() {
    aplicacao =
        new SpringApplicationBuilder(ReceptorApplication.class)
            .run(
                "--spring.datasource.url=" + postgres.jdbcUrl(),
                "--spring.datasource.username=" + PapelNoBanco.RECEPTOR.nome(),
                "--spring.datasource.password=" + PapelNoBanco.RECEPTOR.senhaLocal(),
                "--receptor.segredos=" + Entregas.SEGREDOS,
                "--receptor.tamanho-maximo-do-corpo=" + CORPO_MAXIMO + "B",
                "--receptor.corpos-em-memoria=" + EM_MEMORIA + "B",
                "--receptor.gravacao.bytes-na-fila=" + (3 * 10_000) + "B",
                "--receptor.gravacao.escritores=1",
                "--receptor.espera-sugerida=3s",
                // The queue test holds a row lock for a while; neither may give up first.
                "--receptor.tempo-limite-do-comando=60s",
                "--receptor.espera-pela-gravacao=60s",
                "--server.port=0",
                "--management.server.port=0");
    porta = ((WebServerApplicationContext) aplicacao).getWebServer().getPort();
    entregas = new Entregas(porta);
  }

  @AfterAll
  static void parar() {
    if (aplicacao != null) {
      aplicacao.close();
    }
  }

  @AfterEach
  void soltar() throws IOException {
    for (Socket socket : parados) {
      socket.close();
    }
    await().until(() -> medida("receptor.corpos.em.memoria") == 0);
  }

  @Test
  void corposSendoLidosAlemDoLimiteDao503SemLerNadaEOLimiteVoltaQuandoTerminam()
      throws IOException {
    // Four requests whose bodies never finish arriving: two declare 16 KiB, two are chunked (and
    // so reserve the whole limit). Together they hold all of receptor.corpos-em-memoria.
    pararNoMeio("Content-Length: " + CORPO_MAXIMO);
    pararNoMeio("Content-Length: " + CORPO_MAXIMO);
    pararNoMeio("Transfer-Encoding: chunked");
    pararNoMeio("Transfer-Encoding: chunked");
    await().until(() -> medida("receptor.corpos.em.memoria") == EM_MEMORIA);
    String id = prefixo + "recusado";

    HttpResponse<String> resposta = entregas.enviar(Entregas.evento(id));

    assertThat(resposta.statusCode()).isEqualTo(503);
    assertThat(resposta.headers().firstValue("Retry-After")).hasValue("3");
    ContratoDoReceptor.assertProblema(resposta, "sobrecarregado");
    assertThat(linhas(id)).isZero();

    for (Socket socket : parados) {
      socket.close();
    }
    // Each stalled request ends (client gone) and gives its bytes back.
    await().until(() -> medida("receptor.corpos.em.memoria") == 0);
    assertThat(entregas.enviar(Entregas.evento(id)).statusCode()).isEqualTo(200);
    assertThat(linhas(id)).isEqualTo(1);
  }

  @Test
  void aFilaCheiaEmBytesDa503ComRetryAfterENuncaUm200AntesDoCommit() throws Exception {
    String preso = prefixo + "preso";
    try (Connection trava = BancoDeTeste.conectar(postgres)) {
      // An uncommitted row with the first event's id: the one writer blocks on it.
      trava.setAutoCommit(false);
      try (PreparedStatement insercao = trava.prepareStatement(INSERIR)) {
        insercao.setString(1, preso);
        insercao.setString(2, "ord");
        insercao.setString(3, "order.paid");
        insercao.setString(4, Entregas.evento(preso));
        insercao.executeQuery().close();
      }
      CompletableFuture<HttpResponse<String>> primeiro =
          entregas.enviarAssincrono(corpoDe(preso, 10_000));
      await().until(() -> medida("receptor.gravacao.fila.bytes") == 10_000);
      CompletableFuture<HttpResponse<String>> segundo =
          entregas.enviarAssincrono(corpoDe(prefixo + "fila1", 10_000));
      CompletableFuture<HttpResponse<String>> terceiro =
          entregas.enviarAssincrono(corpoDe(prefixo + "fila2", 10_000));
      await().until(() -> medida("receptor.gravacao.fila.bytes") == 30_000);

      HttpResponse<String> cheia = entregas.enviar(corpoDe(prefixo + "fila3", 10_000));

      assertThat(cheia.statusCode()).isEqualTo(503);
      assertThat(cheia.headers().firstValue("Retry-After")).hasValue("3");
      ContratoDoReceptor.assertProblema(cheia, "fila_cheia");
      // Nothing was committed yet, so nobody has been answered.
      assertThat(List.of(primeiro, segundo, terceiro)).noneMatch(CompletableFuture::isDone);
      trava.rollback();
      for (CompletableFuture<HttpResponse<String>> resposta :
          List.of(primeiro, segundo, terceiro)) {
        assertThat(resposta.join().statusCode()).isEqualTo(200);
      }
    }
    assertThat(linhas(prefixo + "fila3")).isZero();
    await().until(() -> medida("receptor.gravacao.fila.bytes") == 0);
    assertThat(entregas.enviar(corpoDe(prefixo + "fila3", 10_000)).statusCode()).isEqualTo(200);
  }

  /** Sends the head and a few bytes of a 16 KiB body, then nothing more: the request waits. */
  private void pararNoMeio(String enquadramento) throws IOException {
    Socket socket = new Socket("127.0.0.1", porta);
    parados.add(socket);
    OutputStream saida = socket.getOutputStream();
    boolean chunked = enquadramento.startsWith("Transfer-Encoding");
    String cabecalhos =
        "POST /webhooks/loja HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "x-loja-signature: "
            + "ab".repeat(32)
            + "\r\n"
            + enquadramento
            + "\r\n\r\n"
            + (chunked ? "2\r\n{\"\r\n" : "{\"");
    saida.write(cabecalhos.getBytes(StandardCharsets.US_ASCII));
    saida.flush();
  }

  /** An event whose body is exactly {@code bytes} long (ASCII, so as many characters). */
  private static byte[] corpoDe(String id, int bytes) {
    String base = Entregas.evento(id);
    String inicio = base.substring(0, base.length() - 1) + ", \"pad\": \"";
    String corpo = inicio + "x".repeat(bytes - inicio.length() - 2) + "\"}";
    assertThat(corpo.length()).isEqualTo(bytes);
    return corpo.getBytes(StandardCharsets.US_ASCII);
  }

  private static double medida(String nome) {
    return aplicacao.getBean(MeterRegistry.class).get(nome).gauge().value();
  }

  private static long linhas(String id) {
    return BancoDeTeste.contar(
        postgres, "SELECT count(*) FROM webhook_eventos WHERE evento_id = ?", id);
  }
}
