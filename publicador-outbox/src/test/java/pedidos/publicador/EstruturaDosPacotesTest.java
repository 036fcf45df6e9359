package pedidos.publicador;

import org.junit.jupiter.api.Test;
import pedidos.testes.EstruturaDosPacotes;

/**
 * The relay's packages, one per feature, each depending only on those listed before it: its
 * settings ({@code configuracao}), the rows and the messages made of them ({@code linhas}), the
 * metrics ({@code metricas}), the Kafka side ({@code envio}), the dead letters ({@code mortos}),
 * the Debezium engine ({@code motor}), the lease and the supervisor that runs the engine ({@code
 * supervisao}), and the fallback re-send ({@code reenvio}). The root sits above them all: the
 * application, its commands and its health, which put the features together. Dependencies point one
 * way, so any package can be read, and changed, knowing only those below it.
 */
class EstruturaDosPacotesTest {

  @Test
  void osPacotesNaoFormamCiclosENenhumDependeDaRaiz() {
    EstruturaDosPacotes.semCiclosComARaizPorCima("pedidos.publicador");
  }
}
