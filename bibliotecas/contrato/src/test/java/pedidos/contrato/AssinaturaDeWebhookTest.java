package pedidos.contrato;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class AssinaturaDeWebhookTest {

  private static final byte[] CORPO = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);
  private static final String NOVO = "novo-segredo-com-pelo-menos-32-bytes";
  private static final String ANTIGO = "antigo-segredo-com-pelo-menos-32-bytes";

  /** The example secret of the Standard Webhooks specification's test vectors (24 bytes). */
  private static final String WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  @Test
  void daLojaEOHmacSha256EmHexMinusculoDosBytesExatos() {
    // A well-known HMAC-SHA256 test vector.
    var assinatura = AssinaturaDeWebhook.doSegredo("key");
    byte[] corpo = "The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.UTF_8);

    assertThat(assinatura.daLoja(corpo))
        .isEqualTo("f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8");
    assertThat(assinatura.confereDaLoja(corpo, assinatura.daLoja(corpo))).isTrue();
  }

  @Test
  void daLojaSoHexMinusculoDeTamanhoCertoDosMesmosBytes() {
    var assinatura = AssinaturaDeWebhook.doSegredo(NOVO);
    String certa = assinatura.daLoja(CORPO);

    assertThat(assinatura.confereDaLoja(CORPO, certa.toUpperCase())).isFalse();
    assertThat(assinatura.confereDaLoja(CORPO, certa + "0")).isFalse();
    assertThat(assinatura.confereDaLoja(CORPO, certa.substring(1))).isFalse();
    assertThat(assinatura.confereDaLoja(CORPO, null)).isFalse();
    assertThat(assinatura.confereDaLoja(CORPO, "")).isFalse();
    assertThat(assinatura.confereDaLoja(CORPO, "é".repeat(64))).isFalse();
    assertThat(
            assinatura.confereDaLoja("{\"id\": \"evt_1\"}".getBytes(StandardCharsets.UTF_8), certa))
        .as("another text of the same JSON")
        .isFalse();
  }

  @Test
  void rotacaoOPrimeiroAssinaQualquerUmConfere() {
    var emRotacao = AssinaturaDeWebhook.dosSegredos(List.of(NOVO, ANTIGO));
    var antigo = AssinaturaDeWebhook.doSegredo(ANTIGO);
    var novo = AssinaturaDeWebhook.doSegredo(NOVO);

    assertThat(emRotacao.confereDaLoja(CORPO, antigo.daLoja(CORPO))).isTrue();
    assertThat(emRotacao.confereDaLoja(CORPO, novo.daLoja(CORPO))).isTrue();
    assertThat(emRotacao.daLoja(CORPO)).isEqualTo(novo.daLoja(CORPO));
    assertThat(antigo.confereDaLoja(CORPO, emRotacao.daLoja(CORPO))).isFalse();
    String instante = "1614265330";
    assertThat(
            emRotacao.confereStandard(
                "msg_1", instante, antigo.standard("msg_1", instante, CORPO), CORPO))
        .isTrue();
  }

  @Test
  void standardWebhooksComOVetorDaEspecificacao() {
    // The test vector published with the Standard Webhooks reference libraries.
    byte[] corpo = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    String id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    String instante = "1614265330";
    String esperada = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    var daEspecificacao = AssinaturaDeWebhook.doSegredo(WHSEC);

    assertThat(daEspecificacao.standard(id, instante, corpo)).isEqualTo(esperada);
    assertThat(daEspecificacao.confereStandard(id, instante, esperada, corpo)).isTrue();
    assertThat(AssinaturaDeWebhook.doSegredo(segredoStandardDe32Bytes()))
        .satisfies(
            outra -> assertThat(outra.confereStandard(id, instante, esperada, corpo)).isFalse());
    assertThat(
            AssinaturaDeWebhook.instanteAceito(
                instante, Instant.ofEpochSecond(1614265330), Duration.ofMinutes(5)))
        .isTrue();
  }

  @Test
  void standardWebhooksAceitaQualquerUmaDasAssinaturasDoCabecalho() {
    var assinatura = AssinaturaDeWebhook.doSegredo(segredoStandardDe32Bytes());
    String certa = assinatura.standard("msg_1", "100", CORPO);

    assertThat(assinatura.confereStandard("msg_1", "100", "v1,AAAA " + certa + " v2,outra", CORPO))
        .isTrue();
    assertThat(assinatura.confereStandard("msg_1", "100", "  " + certa + "  ", CORPO)).isTrue();
    // The id and the timestamp are signed: changing either breaks the signature.
    assertThat(assinatura.confereStandard("msg_2", "100", certa, CORPO)).isFalse();
    assertThat(assinatura.confereStandard("msg_1", "101", certa, CORPO)).isFalse();
    assertThat(assinatura.confereStandard("msg_1", "100", certa.replace("v1,", "v2,"), CORPO))
        .isFalse();
    assertThat(assinatura.confereStandard("msg_1", "100", null, CORPO)).isFalse();
  }

  @Test
  void maisAssinaturasQueOLimiteNumCabecalhoNaoSaoConferidas() {
    var assinatura = AssinaturaDeWebhook.doSegredo(NOVO);
    String certa = assinatura.standard("msg_1", "100", CORPO);
    String noLimite = "v1,AAAA ".repeat(AssinaturaDeWebhook.ASSINATURAS_MAXIMAS - 1) + certa;

    assertThat(assinatura.confereStandard("msg_1", "100", noLimite, CORPO)).isTrue();
    assertThat(assinatura.confereStandard("msg_1", "100", "v1,AAAA " + noLimite, CORPO)).isFalse();
  }

  @Test
  void instanteDentroDaToleranciaEmSegundos() {
    Instant agora = Instant.parse("2026-12-01T12:00:00Z");
    long s = agora.getEpochSecond();
    Duration cinco = Duration.ofMinutes(5);

    for (long aceito : new long[] {s, s - 300, s + 300}) {
      assertThat(AssinaturaDeWebhook.instanteAceito(String.valueOf(aceito), agora, cinco))
          .as("%d", aceito)
          .isTrue();
    }
    for (String recusado :
        new String[] {String.valueOf(s - 301), String.valueOf(s + 301), "abc", "", "1e9", null}) {
      assertThat(AssinaturaDeWebhook.instanteAceito(recusado, agora, cinco)).as(recusado).isFalse();
    }
  }

  @Test
  void segredoWhsecEUsadoDecodificadoOsOutrosComoUtf8() {
    byte[] chave = new byte[] {1, 2, 3, (byte) 0xff};
    String whsec = AssinaturaDeWebhook.PREFIXO_DA_CHAVE + Base64.getEncoder().encodeToString(chave);

    assertThat(AssinaturaDeWebhook.chave(whsec)).isEqualTo(chave);
    assertThat(AssinaturaDeWebhook.chave("é")).isEqualTo("é".getBytes(StandardCharsets.UTF_8));
    assertThat(AssinaturaDeWebhook.doSegredo(whsec).daLoja(CORPO))
        .isEqualTo(AssinaturaDeWebhook.dasChaves(List.of(chave)).daLoja(CORPO));
    assertThatThrownBy(() -> AssinaturaDeWebhook.chave("whsec_%%%"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("base64");
  }

  @Test
  void semSegredoOuComSegredoVazioNaoExiste() {
    assertThatThrownBy(() -> AssinaturaDeWebhook.dosSegredos(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AssinaturaDeWebhook.doSegredo(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(AssinaturaDeWebhook.doSegredo(NOVO).toString()).doesNotContain(NOVO);
  }

  /** Whatever the body, what one side signs the other verifies, in both schemes. */
  @Property(tries = 200)
  void oQueSeAssinaSeConfere(@ForAll byte[] corpo, @ForAll String id, @ForAll long instante) {
    var assinatura = AssinaturaDeWebhook.doSegredo(NOVO);
    String texto = String.valueOf(instante);

    assertThat(assinatura.confereDaLoja(corpo, assinatura.daLoja(corpo))).isTrue();
    assertThat(assinatura.confereStandard(id, texto, assinatura.standard(id, texto, corpo), corpo))
        .isTrue();
  }

  static String segredoStandardDe32Bytes() {
    byte[] chave = new byte[32];
    for (int i = 0; i < chave.length; i++) {
      chave[i] = (byte) (i * 7 + 3);
    }
    return AssinaturaDeWebhook.PREFIXO_DA_CHAVE + Base64.getEncoder().encodeToString(chave);
  }
}
