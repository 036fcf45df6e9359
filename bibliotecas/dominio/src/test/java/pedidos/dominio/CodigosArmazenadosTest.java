package pedidos.dominio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The codes stored in the database read back as what was written. */
class CodigosArmazenadosTest {

  @Test
  void cadaEfeitoVoltaDoSeuCodigo() {
    for (Efeito efeito : Efeito.values()) {
      assertThat(Efeito.doCodigo(efeito.codigo())).isSameAs(efeito);
    }
    assertThat(List.of(Efeito.values()))
        .extracting(Efeito::codigo)
        .containsExactly("liberar_separacao", "interromper_separacao", "notificar_reembolso");
  }

  @Test
  void cadaStatusVoltaDoSeuCodigo() {
    for (Status status : Status.values()) {
      assertThat(Status.doCodigo(status.codigo())).isSameAs(status);
    }
  }

  /**
   * The store's vocabulary, pinned: the provider sends these, and the simulator and the benchmarks
   * write them from this table.
   */
  @Test
  void osNomesDaLojaParaCadaStatusEDeVolta() {
    assertThat(List.of(Status.values()))
        .extracting(Status::tipoDoEvento)
        .containsExactly(
            "order.created", "order.paid", "order.shipped", "order.canceled", "order.refunded");
    assertThat(List.of(Status.values()))
        .extracting(Status::statusDaApi)
        .containsExactly("open", "paid", "shipped", "canceled", "refunded");
    for (Status status : Status.values()) {
      assertThat(Status.doTipoDeEvento(status.tipoDoEvento())).contains(status);
      assertThat(Status.daApi(status.statusDaApi())).contains(status);
    }
    assertThat(Status.doTipoDeEvento("order.updated")).isEmpty();
    assertThat(Status.doTipoDeEvento(null)).isEmpty();
    assertThat(Status.daApi("pending")).isEmpty();
    assertThat(Status.daApi(null)).isEmpty();
  }

  @Test
  void resultadosTemOsCodigosQueOBancoEOPainelUsam() {
    // The applier's SQL and the status page name some of them as literals.
    assertThat(List.of(Resultado.values()))
        .extracting(Resultado::codigo)
        .containsExactly(
            "aplicado",
            "evento_antigo",
            "regressao_de_terminal",
            "tipo_ignorado",
            "fato_invalido",
            "falha_de_aplicacao");
  }

  @Test
  void codigoDesconhecidoEUmErroClaro() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Efeito.doCodigo("liberar"))
        .withMessageContaining("liberar");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Status.doCodigo("pendente"))
        .withMessageContaining("pendente");
  }
}
