package pedidos.aplicador;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.testes.InfraDeTeste;

/**
 * One Spring context for every test class of the module, on the JVM's shared PostgreSQL and Kafka:
 * the same base class gives the same context key, so the context is built once.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
      "aplicador.espera-por-lock=500ms",
      "aplicador.espera-maxima-entre-tentativas=500ms",
      "aplicador.tarefas-periodicas=false"
    })
public abstract class ContextoDoAplicador {

  @DynamicPropertySource
  static void infra(DynamicPropertyRegistry registro) {
    InfraDeTeste.registrar(registro, PapelNoBanco.APLICADOR);
    // The relay's, in a deployment: the applier checks them at start and creates none.
    TopicosDeTeste.comoORelay();
  }

  /**
   * The database's administrator, for what the applier's role rightly cannot do and a test must:
   * lose rows, as a restore from an old backup would.
   */
  protected static JdbcClient comoAdministrador() {
    return JdbcClient.create(InfraLocal.compartilhada().postgres().dataSource());
  }
}
