package pedidos.receptor.entrada;

import static org.assertj.core.api.Assertions.assertThat;
import static pedidos.receptor.entrada.ContratoDoReceptor.assertProblema;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.infra.PostgresLocal;
import pedidos.receptor.BancoDeTeste;
import pedidos.receptor.Entregas;
import pedidos.receptor.ReceptorApplication;

/**
 * Standard Webhooks signatures beside the store's header, and the per-address rate limit, over real
 * HTTP. The clock is the test's: each test starts an hour after the last, so every bucket has
 * refilled and timestamps are whatever the test says "now" is.
 */
@SpringBootTest(
    classes = {ReceptorApplication.class, AssinaturaEFrequenciaTest.Relogio.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "receptor.segredos=" + Entregas.SEGREDO + "," + AssinaturaEFrequenciaTest.SEGREDO_STANDARD,
      "receptor.assinatura.esquemas=loja,standard-webhooks",
      "receptor.assinatura.tolerancia=5m",
      "receptor.limite-por-origem.requisicoes-por-segundo=1",
      "receptor.limite-por-origem.rajada=3",
      "management.server.port=0"
    })
class AssinaturaEFrequenciaTest {

  static final String SEGREDO_STANDARD = "whsec_AwoRGB8mLTQ7QklQV15lbHN6gYiPlp2kq7K5wMfO1dw=";

  @DynamicPropertySource
  static void banco(DynamicPropertyRegistry registro) {
    BancoDeTeste.registrar(registro);
  }

  @LocalServerPort int porta;
  @Autowired RelogioDeTeste relogio;

  private final PostgresLocal postgres = BancoDeTeste.compartilhado();
  private final String prefixo = "evt_" + UUID.randomUUID() + "_";
  private Entregas entregas;

  @BeforeEach
  void preparar() {
    entregas = new Entregas(porta);
    relogio.avancar(Duration.ofHours(1));
  }

  @Test
  void standardWebhooksAssinadoEGravado() throws Exception {
    String id = prefixo + "sw";
    byte[] corpo = Entregas.evento(id).getBytes(StandardCharsets.UTF_8);
    String instante = String.valueOf(relogio.instant().getEpochSecond());

    HttpResponse<String> resposta = entregas.enviar(standard(corpo, "msg_" + id, instante));

    assertThat(resposta.statusCode()).as(resposta.body()).isEqualTo(200);
    assertThat(
            BancoDeTeste.texto(
                postgres, "SELECT count(*) FROM webhook_eventos WHERE evento_id = ?", id))
        .isEqualTo("1");
    // The store's own header still works beside it.
    assertThat(entregas.enviar(Entregas.evento(prefixo + "loja")).statusCode()).isEqualTo(200);
  }

  @Test
  void umaCapturaReenviadaDepoisDaToleranciaEhRecusadaSemGravar() {
    String id = prefixo + "velho";
    byte[] corpo = Entregas.evento(id).getBytes(StandardCharsets.UTF_8);
    String instante = String.valueOf(relogio.instant().getEpochSecond());
    HttpRequest capturada = standard(corpo, "msg_" + id, instante);

    relogio.avancar(Duration.ofMinutes(5).plusSeconds(1));
    HttpResponse<String> resposta = entregas.enviar(capturada);

    assertThat(resposta.statusCode()).isEqualTo(401);
    assertProblema(resposta, "assinatura_expirada");
    assertThat(
            BancoDeTeste.texto(
                postgres, "SELECT count(*) FROM webhook_eventos WHERE evento_id = ?", id))
        .isEqualTo("0");
  }

  @Test
  void assinaturaStandardErradaOuIncompletaEh401() {
    byte[] corpo = Entregas.evento(prefixo + "errada").getBytes(StandardCharsets.UTF_8);
    String instante = String.valueOf(relogio.instant().getEpochSecond());
    HttpRequest errada =
        entregas
            .requisicao()
            .header("Content-Type", "application/json")
            .header("webhook-id", "msg_1")
            .header("webhook-timestamp", instante)
            .header("webhook-signature", "v1,bm90IGEgc2lnbmF0dXJl")
            .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
            .build();
    HttpRequest semId =
        entregas
            .requisicao()
            .header("Content-Type", "application/json")
            .header("webhook-timestamp", instante)
            .header(
                "webhook-signature",
                Entregas.assinarStandard(SEGREDO_STANDARD, "", instante, corpo))
            .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
            .build();

    for (HttpRequest requisicao : new HttpRequest[] {errada, semId}) {
      HttpResponse<String> resposta = entregas.enviar(requisicao);
      assertThat(resposta.statusCode()).isEqualTo(401);
      assertProblema(resposta, "assinatura_invalida");
    }
  }

  @Test
  void alemDaRajadaUmEnderecoRecebe429ComRetryAfterAntesDeQualquerVerificacao() {
    // Unsigned: within the burst they get 401; beyond it, 429 before the signature is looked at.
    HttpRequest semAssinatura =
        entregas
            .requisicao()
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();
    for (int i = 0; i < 3; i++) {
      assertThat(entregas.enviar(semAssinatura).statusCode()).as("request %d", i).isEqualTo(401);
    }

    HttpResponse<String> excedida = entregas.enviar(semAssinatura);

    assertThat(excedida.statusCode()).isEqualTo(429);
    assertProblema(excedida, "taxa_excedida");
    assertThat(excedida.headers().firstValue("Retry-After")).hasValue("1");

    relogio.avancar(Duration.ofSeconds(1));
    assertThat(entregas.enviar(Entregas.evento(prefixo + "depois")).statusCode()).isEqualTo(200);
  }

  private HttpRequest standard(byte[] corpo, String id, String instante) {
    return entregas
        .requisicao()
        .header("Content-Type", "application/json")
        .header("webhook-id", id)
        .header("webhook-timestamp", instante)
        .header(
            "webhook-signature", Entregas.assinarStandard(SEGREDO_STANDARD, id, instante, corpo))
        .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
        .build();
  }

  /** A clock the tests move forward. */
  static final class RelogioDeTeste extends Clock {
    private final AtomicReference<Instant> agora =
        new AtomicReference<>(Instant.parse("2026-12-01T12:00:00Z"));

    void avancar(Duration quanto) {
      agora.updateAndGet(instante -> instante.plus(quanto));
    }

    @Override
    public Instant instant() {
      return agora.get();
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zona) {
      return this;
    }
  }

  @TestConfiguration(proxyBeanMethods = false)
  static class Relogio {
    @Bean
    @Primary
    RelogioDeTeste relogioDeTeste() {
      return new RelogioDeTeste();
    }
  }
}
