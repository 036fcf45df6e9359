package pedidos.aplicador;

import org.junit.jupiter.api.Test;
import pedidos.testes.EstruturaDosPacotes;

/**
 * The applier's packages: one per feature ({@code aplicacao}, {@code ouvinte}, {@code varredura},
 * {@code reconciliacao}, {@code replay}, {@code retencao}, {@code apagamento}, {@code painel},
 * {@code comandos}) and their settings ({@code configuracao}), with the root above them: the
 * application and the schedule of the periodic work, which put the features together. Dependencies
 * point one way, so any package can be read, and changed, knowing only those below it.
 */
class EstruturaDosPacotesTest {

  @Test
  void osPacotesNaoFormamCiclosENenhumDependeDaRaiz() {
    EstruturaDosPacotes.semCiclosComARaizPorCima("pedidos.aplicador");
  }
}
