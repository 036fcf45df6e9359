package pedidos.receptor.assinatura;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static pedidos.receptor.PropriedadesDeTeste.AMBOS;
import static pedidos.receptor.PropriedadesDeTeste.SO_LOJA;
import static pedidos.receptor.PropriedadesDeTeste.propriedades;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.receptor.Entregas;
import pedidos.receptor.EsquemaDeAssinatura;
import pedidos.receptor.ReceptorProperties;

class VerificadorDeAssinaturaTest {

  private static final byte[] CORPO = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);
  private static final String NOVO = "novo-segredo-com-pelo-menos-32-bytes";
  private static final String ANTIGO = "antigo-segredo-com-pelo-menos-32-bytes";

  /** The example secret of the Standard Webhooks specification's test vectors. */
  private static final String WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  private static final Instant AGORA = Instant.parse("2026-12-01T12:00:00Z");
  private static final Clock RELOGIO = Clock.fixed(AGORA, ZoneOffset.UTC);

  @Test
  void aceitaAAssinaturaDeQualquerSegredoConfigurado() {
    VerificadorDeAssinatura verificador = verificador(SO_LOJA, NOVO, ANTIGO);

    assertThat(verificador.valida(CORPO, loja(Entregas.assinar(CORPO, NOVO)))).isTrue();
    assertThat(verificador.valida(CORPO, loja(Entregas.assinar(CORPO, ANTIGO)))).isTrue();
    assertThat(verificador.valida(CORPO, loja(Entregas.assinar(CORPO, "outro")))).isFalse();
  }

  @Test
  void confereOsBytesExatos() {
    VerificadorDeAssinatura verificador = verificador(SO_LOJA, NOVO);
    String assinatura = Entregas.assinar(CORPO, NOVO);
    byte[] comEspaco = "{\"id\": \"evt_1\"}".getBytes(StandardCharsets.UTF_8);

    assertThat(verificador.valida(comEspaco, loja(assinatura))).isFalse();
  }

  @Test
  void soHexMinusculoDeTamanhoCerto() {
    VerificadorDeAssinatura verificador = verificador(SO_LOJA, NOVO);
    String assinatura = Entregas.assinar(CORPO, NOVO);

    assertThat(verificador.valida(CORPO, loja(assinatura.toUpperCase()))).isFalse();
    assertThat(verificador.valida(CORPO, loja(assinatura + "0"))).isFalse();
    assertThat(verificador.valida(CORPO, loja(assinatura.substring(1)))).isFalse();
    assertThat(verificador.valida(CORPO, loja(null))).isFalse();
    assertThat(verificador.valida(CORPO, loja(""))).isFalse();
    assertThat(verificador.valida(CORPO, loja("é".repeat(64)))).isFalse();
  }

  @Test
  void standardWebhooksComOVetorDaEspecificacao() {
    // The test vector published with the Standard Webhooks reference libraries.
    byte[] corpo = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    var credencial =
        new Credencial.StandardWebhooks(
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            "1614265330",
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    Clock entao = Clock.fixed(Instant.ofEpochSecond(1614265330), ZoneOffset.UTC);
    VerificadorDeAssinatura verificador =
        new VerificadorDeAssinatura(propriedades(AMBOS, segredoStandardDe32Bytes()), entao);
    // The specification's example key has 24 bytes: fine for its vector, refused in production.
    VerificadorDeAssinatura comAChaveDaEspecificacao =
        new VerificadorDeAssinatura(List.of(AssinaturaDeWebhook.chave(WHSEC)), AMBOS, entao);

    assertThat(comAChaveDaEspecificacao.valida(corpo, credencial)).isTrue();
    assertThat(verificador.valida(corpo, credencial)).isFalse();
  }

  @Test
  void standardWebhooksAceitaQualquerUmaDasAssinaturasDoCabecalho() {
    String segredo = segredoStandardDe32Bytes();
    VerificadorDeAssinatura verificador = verificador(AMBOS, segredo);
    String instante = String.valueOf(AGORA.getEpochSecond());
    String certa = Entregas.assinarStandard(segredo, "msg_1", instante, CORPO);

    assertThat(verificador.valida(CORPO, new Credencial.StandardWebhooks("msg_1", instante, certa)))
        .isTrue();
    assertThat(
            verificador.valida(
                CORPO,
                new Credencial.StandardWebhooks(
                    "msg_1", instante, "v1,AAAA " + certa + " v2,outra")))
        .isTrue();
    // The id and the timestamp are signed: changing either breaks the signature.
    assertThat(verificador.valida(CORPO, new Credencial.StandardWebhooks("msg_2", instante, certa)))
        .isFalse();
    String depois = String.valueOf(AGORA.getEpochSecond() + 1);
    assertThat(verificador.valida(CORPO, new Credencial.StandardWebhooks("msg_1", depois, certa)))
        .isFalse();
  }

  @Test
  void standardWebhooksForaDaToleranciaEhRecusadoQualquerQueSejaOCorpo() {
    String segredo = segredoStandardDe32Bytes();
    VerificadorDeAssinatura verificador = verificador(AMBOS, segredo);
    long agora = AGORA.getEpochSecond();
    for (long instante : new long[] {agora - 301, agora + 301}) {
      var credencial =
          new Credencial.StandardWebhooks(
              "msg_1",
              String.valueOf(instante),
              Entregas.assinarStandard(segredo, "msg_1", String.valueOf(instante), CORPO));
      assertThat(verificador.instanteAceito(credencial)).as("%d", instante).isFalse();
      assertThat(verificador.valida(CORPO, credencial)).isFalse();
    }
    for (String instante : new String[] {String.valueOf(agora - 300), "abc", "", "1e9"}) {
      var credencial = new Credencial.StandardWebhooks("msg_1", instante, "v1,x");
      assertThat(verificador.instanteAceito(credencial))
          .as(instante)
          .isEqualTo(instante.equals(String.valueOf(agora - 300)));
    }
  }

  @Test
  void umEsquemaDesligadoNaoVerificaNada() {
    String segredo = segredoStandardDe32Bytes();
    VerificadorDeAssinatura verificador = verificador(SO_LOJA, segredo);
    String instante = String.valueOf(AGORA.getEpochSecond());
    var credencial =
        new Credencial.StandardWebhooks(
            "msg_1", instante, Entregas.assinarStandard(segredo, "msg_1", instante, CORPO));

    assertThat(verificador.aceita(EsquemaDeAssinatura.STANDARD_WEBHOOKS)).isFalse();
    assertThat(verificador.valida(CORPO, credencial)).isFalse();
  }

  @Test
  void semSegredoNaoExiste() {
    assertThatThrownBy(() -> verificador(SO_LOJA)).isInstanceOf(IllegalStateException.class);
  }

  static String segredoStandardDe32Bytes() {
    byte[] chave = new byte[32];
    for (int i = 0; i < chave.length; i++) {
      chave[i] = (byte) (i * 7 + 3);
    }
    return "whsec_" + Base64.getEncoder().encodeToString(chave);
  }

  private static Credencial loja(String assinatura) {
    return new Credencial.Loja(assinatura);
  }

  private static VerificadorDeAssinatura verificador(
      ReceptorProperties.Assinatura assinatura, String... segredos) {
    return new VerificadorDeAssinatura(propriedades(assinatura, segredos), RELOGIO);
  }
}
