package pedidos.receptor.entrada;

import static org.assertj.core.api.Assertions.assertThat;

import org.springframework.test.context.TestPropertySource;

/** The contract with one insert and one commit per request. */
@TestPropertySource(properties = "receptor.gravacao.modo=individual")
class ReceptorIndividualTest extends ContratoDoReceptor {

  @Override
  void verificarLinhasPorInsert(double maximo) {
    assertThat(maximo).isEqualTo(1);
  }
}
