package pedidos.receptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The operators' login of the actuator: optional, but never half-set nor short. */
class OpsDaGestaoTest {

  @Test
  void semLoginOActuatorFicaFechado() {
    assertThat(new ReceptorProperties.Ops("", "").configurado()).isFalse();
    assertThat(new ReceptorProperties.Ops("ops", "x".repeat(16)).configurado()).isTrue();
  }

  @Test
  void loginPelaMetadeOuSenhaCurtaNaoParte() {
    assertThatThrownBy(() -> new ReceptorProperties.Ops("ops", ""))
        .hasMessageContaining("PEDIDOS_OPS_SENHA");
    assertThatThrownBy(() -> new ReceptorProperties.Ops("", "x".repeat(16)))
        .hasMessageContaining("PEDIDOS_OPS_USUARIO");
    assertThatThrownBy(() -> new ReceptorProperties.Ops("ops", "x".repeat(15)))
        .hasMessageContaining("16");
  }

  @Test
  void aSenhaNuncaApareceNoTexto() {
    assertThat(new ReceptorProperties.Ops("ops", "segredo-muito-longo-aqui").toString())
        .contains("ops")
        .doesNotContain("segredo");
  }
}
