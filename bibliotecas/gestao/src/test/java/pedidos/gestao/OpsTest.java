package pedidos.gestao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The operators' login of the actuator: optional, but never half-set nor short. */
class OpsTest {

  @Test
  void semLoginOActuatorFicaFechado() {
    assertThat(new Ops("", "").configurado()).isFalse();
    assertThat(new Ops("ops", "x".repeat(16)).configurado()).isTrue();
  }

  @Test
  void loginPelaMetadeOuSenhaCurtaNaoParte() {
    assertThatThrownBy(() -> new Ops("ops", "")).hasMessageContaining("PEDIDOS_OPS_SENHA");
    assertThatThrownBy(() -> new Ops("", "x".repeat(16)))
        .hasMessageContaining("PEDIDOS_OPS_USUARIO");
    assertThatThrownBy(() -> new Ops("ops", "x".repeat(15))).hasMessageContaining("16");
  }

  @Test
  void aSenhaNuncaApareceNoTexto() {
    assertThat(new Ops("ops", "segredo-muito-longo-aqui").toString())
        .contains("ops")
        .doesNotContain("segredo");
  }
}
