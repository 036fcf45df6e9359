package pedidos.aplicador;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.infra.InfraDeTeste;
import pedidos.infra.PapelNoBanco;

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
abstract class ContextoDoAplicador {

  @DynamicPropertySource
  static void infra(DynamicPropertyRegistry registro) {
    InfraDeTeste.registrar(registro, PapelNoBanco.APLICADOR);
  }
}
