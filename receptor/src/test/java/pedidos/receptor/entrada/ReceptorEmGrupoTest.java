package pedidos.receptor.entrada;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.springframework.test.context.TestPropertySource;

/** The contract with group commit, the default mode. */
@TestPropertySource(properties = "receptor.gravacao.modo=grupo")
@Tag("todas-as-versoes-do-postgres")
class ReceptorEmGrupoTest extends ContratoDoReceptor {

  /** Concurrent requests shared statements, so commits. */
  @Override
  void verificarLinhasPorInsert(double maximo) {
    assertThat(maximo).isGreaterThan(1);
  }
}
