package pedidos.receptor.entrada;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.Entregas;
import pedidos.receptor.ReceptorApplication;

/**
 * PostgreSQL stopped in the middle: the receptor answers 503 with Retry-After, quickly, loses
 * nothing, and takes the same deliveries once the database is back. Run once per write mode.
 *
 * <p>Each subclass gets its own PostgreSQL: stopping the JVM's shared one would break the other
 * test classes.
 */
@SpringBootTest(
    classes = ReceptorApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "receptor.segredos=" + Entregas.SEGREDOS,
      "management.server.port=0",
      "receptor.espera-sugerida=7s"
    })
@DirtiesContext
abstract class QuedaDoBanco {

  private static Path dados;
  private static PostgresLocal postgres;

  /**
   * In a directory of its own rather than infra-local's scratch area: creating a second scratch
   * instance in this JVM makes infra-local probe the shared instance's lock file, and on Linux
   * closing that probe drops this JVM's lock, so another test JVM on the machine may take the
   * shared instance for abandoned and stop it.
   */
  @BeforeAll
  static void iniciarBanco() throws IOException {
    dados = Files.createTempDirectory("receptor-queda-do-banco-");
    postgres = PostgresLocal.builder().diretorioDeDados(dados).fsync(false).iniciar();
    postgres.prepararBanco();
  }

  @AfterAll
  static void fecharBanco() throws IOException {
    postgres.close();
    try (Stream<Path> arvore = Files.walk(dados)) {
      arvore.sorted(Comparator.reverseOrder()).forEach(caminho -> caminho.toFile().delete());
    }
  }

  /** Read when the context starts, after {@link #iniciarBanco()}. */
  @DynamicPropertySource
  static void banco(DynamicPropertyRegistry registro) {
    registro.add("spring.datasource.url", () -> postgres.jdbcUrl());
    registro.add("spring.datasource.username", PapelNoBanco.RECEPTOR::nome);
    registro.add("spring.datasource.password", PapelNoBanco.RECEPTOR::senhaLocal);
  }

  @LocalServerPort int porta;

  @Test
  void bancoParadoDa503ComRetryAfterEAsMesmasEntregasPassamQuandoEleVolta() {
    Entregas entregas = new Entregas(porta);
    String prefixo = "evt_" + UUID.randomUUID() + "_";
    String antes = Entregas.evento(prefixo + "antes");
    List<String> duranteAQueda =
        List.of(Entregas.evento(prefixo + "a"), Entregas.evento(prefixo + "b"), antes);
    byte[] invalido = "{\"id\": 1}".getBytes(StandardCharsets.UTF_8);
    assertThat(entregas.enviar(antes).statusCode()).isEqualTo(200);

    postgres.parar();

    for (String json : duranteAQueda) {
      long inicio = System.nanoTime();
      HttpResponse<String> resposta = entregas.enviar(json);
      assertThat(resposta.statusCode()).isEqualTo(503);
      assertThat(resposta.headers().firstValue("Retry-After")).hasValue("7");
      ContratoDoReceptor.assertProblema(resposta, "banco_indisponivel");
      // Hikari's connection timeout (1 s), not the 30 s default.
      assertThat(Duration.ofNanos(System.nanoTime() - inicio)).isLessThan(Duration.ofSeconds(5));
    }
    // Signed but invalid: it cannot reach the quarantine either, so it is not answered 400 (the
    // provider would not send it again and the bytes would be lost).
    assertThat(entregas.enviar(invalido).statusCode()).isEqualTo(503);

    postgres.iniciar();

    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> entregas.enviar(duranteAQueda.get(0)).statusCode() == 200);
    assertThat(entregas.enviar(duranteAQueda.get(1)).statusCode()).isEqualTo(200);
    HttpResponse<String> reentrega = entregas.enviar(antes);
    assertThat(reentrega.statusCode()).isEqualTo(200);
    assertThat(reentrega.body()).contains("duplicado");
    assertThat(entregas.enviar(invalido).statusCode()).isEqualTo(400);
    assertThat(
            BancoDeTeste.contar(
                postgres,
                "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ?",
                prefixo + "%"))
        .isEqualTo(3);
    assertThat(
            BancoDeTeste.contar(
                postgres, "SELECT count(*) FROM webhook_quarentena WHERE corpo = ?", invalido))
        .isEqualTo(1);
  }
}
