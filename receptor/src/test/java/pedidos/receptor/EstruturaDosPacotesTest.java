package pedidos.receptor;

import org.junit.jupiter.api.Test;
import pedidos.testes.EstruturaDosPacotes;

/**
 * A package per feature (the HTTP edge, the signature, the event's reading, the inbox's writing,
 * what a delivery came to), each depending only on those it uses and never back: a change to one
 * feature cannot need a change to a feature it serves. The root package holds what every feature
 * reads (the application, its configuration) and depends on none of them.
 */
class EstruturaDosPacotesTest {

  @Test
  void asFuncionalidadesNaoFormamCicloEARaizNaoDependeDelas() {
    EstruturaDosPacotes.semCiclosComARaizPorBaixo("pedidos.receptor");
  }
}
