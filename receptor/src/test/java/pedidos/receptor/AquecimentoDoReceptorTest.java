package pedidos.receptor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.infra.PostgresLocal;

/**
 * The warm-up before the receptor is ready: its requests went through the real port and the whole
 * path, yet no row, metric or rate-limit budget shows them; and the header it uses means nothing to
 * anyone who does not hold this process's value.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "receptor.segredos=" + Entregas.SEGREDOS,
      "receptor.aquecimento.requisicoes=" + AquecimentoDoReceptorTest.REQUISICOES,
      "receptor.aquecimento.espera-do-jit=" + AquecimentoDoReceptorTest.ESPERA_DO_JIT,
      "receptor.limite-por-origem.requisicoes-por-segundo=1",
      "receptor.limite-por-origem.rajada=1",
      "management.server.port=0"
    })
class AquecimentoDoReceptorTest {

  static final int REQUISICOES = 120;
  static final String ESPERA_DO_JIT = "5s";

  @DynamicPropertySource
  static void banco(DynamicPropertyRegistry registro) {
    BancoDeTeste.registrar(registro);
  }

  @LocalServerPort int porta;
  @Autowired AquecimentoDoReceptor aquecimento;
  @Autowired MeterRegistry metricas;

  private final PostgresLocal postgres = BancoDeTeste.compartilhado();

  @Test
  void aqueceSemGravarNemContarEOCabecalhoAlheioNaoValeNada() {
    var saude = aquecimento.health();
    assertThat(saude.getStatus()).isEqualTo(Status.UP);
    assertThat(saude.getDetails())
        .as("every request answered 200 through the real port, past a rate limit of 1/s")
        .containsEntry("requisicoes", REQUISICOES)
        .as("then it waited for the JIT, and said how much it compiled meanwhile")
        .containsKey("compilacaoMs")
        .as("switched off here (src/test/resources), so the JIT keeps its priority")
        .containsEntry("c2EmSegundoPlano", 0);
    assertThat(
            BancoDeTeste.contar(
                postgres,
                "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE 'aquecimento-%'"))
        .as("its inserts were rolled back")
        .isZero();
    assertThat(requisicoesContadas()).as("no metric counts the warm-up").isZero();

    // Someone else's guess at the header: an ordinary delivery, stored, counted, rate-limited.
    String id = "evt_" + UUID.randomUUID();
    byte[] corpo = Entregas.evento(id).getBytes(StandardCharsets.UTF_8);
    Entregas entregas = new Entregas(porta);
    HttpResponse<String> resposta =
        entregas.enviar(
            entregas
                .requisicao()
                .header("Content-Type", "application/json")
                .header("x-loja-signature", Entregas.assinar(corpo))
                .header(AquecimentoDoReceptor.CABECALHO, "0".repeat(64))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(corpo))
                .build());
    assertThat(resposta.statusCode()).as(resposta.body()).isEqualTo(200);
    assertThat(
            BancoDeTeste.contar(
                postgres, "SELECT count(*) FROM webhook_eventos WHERE evento_id = ?", id))
        .isEqualTo(1);
    assertThat(requisicoesContadas()).isEqualTo(1);
  }

  private long requisicoesContadas() {
    return metricas.find("receptor.requisicoes").timers().stream().mapToLong(Timer::count).sum();
  }
}
