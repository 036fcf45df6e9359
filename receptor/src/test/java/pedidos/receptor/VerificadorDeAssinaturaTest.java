package pedidos.receptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

class VerificadorDeAssinaturaTest {

  private static final byte[] CORPO = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);

  @Test
  void aceitaAAssinaturaDeQualquerSegredoConfigurado() {
    VerificadorDeAssinatura verificador = verificador("novo", "antigo");

    assertThat(verificador.valida(CORPO, Entregas.assinar(CORPO, "novo"))).isTrue();
    assertThat(verificador.valida(CORPO, Entregas.assinar(CORPO, "antigo"))).isTrue();
    assertThat(verificador.valida(CORPO, Entregas.assinar(CORPO, "outro"))).isFalse();
  }

  @Test
  void confereOsBytesExatos() {
    VerificadorDeAssinatura verificador = verificador("s");
    String assinatura = Entregas.assinar(CORPO, "s");
    byte[] comEspaco = "{\"id\": \"evt_1\"}".getBytes(StandardCharsets.UTF_8);

    assertThat(verificador.valida(comEspaco, assinatura)).isFalse();
  }

  @Test
  void soHexMinusculoDeTamanhoCerto() {
    VerificadorDeAssinatura verificador = verificador("s");
    String assinatura = Entregas.assinar(CORPO, "s");

    assertThat(verificador.valida(CORPO, assinatura.toUpperCase())).isFalse();
    assertThat(verificador.valida(CORPO, assinatura + "0")).isFalse();
    assertThat(verificador.valida(CORPO, assinatura.substring(1))).isFalse();
    assertThat(verificador.valida(CORPO, null)).isFalse();
    assertThat(verificador.valida(CORPO, "")).isFalse();
    assertThat(verificador.valida(CORPO, "é".repeat(64))).isFalse();
  }

  @Test
  void semSegredoNaoExiste() {
    assertThatThrownBy(() -> verificador()).isInstanceOf(IllegalStateException.class);
  }

  static VerificadorDeAssinatura verificador(String... segredos) {
    return new VerificadorDeAssinatura(propriedades(segredos));
  }

  static ReceptorProperties propriedades(String... segredos) {
    return new ReceptorProperties(
        List.of(segredos),
        DataSize.ofMegabytes(1),
        DataSize.ofMegabytes(128),
        200,
        java.time.Duration.ofSeconds(5),
        java.time.Duration.ofSeconds(5),
        java.time.Duration.ofSeconds(10),
        new ReceptorProperties.Gravacao(
            ReceptorProperties.Modo.GRUPO,
            128,
            2,
            java.time.Duration.ZERO,
            1000,
            DataSize.ofMegabytes(64)));
  }
}
