package pedidos.pontaaponta;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import pedidos.infra.KafkaLocal;
import pedidos.infra.PostgresLocal;
import pedidos.infra.ProxyCongelavel;

/**
 * The one system this test JVM runs, whichever test class asks first: PostgreSQL, a {@link
 * ProxyCongelavel} every service reaches it through (only the partition scenarios make it fail),
 * Kafka and the services as processes. A whole system takes about 40 s of CI to start; a shutdown
 * hook stops it with the JVM.
 */
final class SistemaCompartilhado {

  static final String TOKEN_DA_API = "token-ponta-a-ponta";

  private static SistemaCompartilhado unico;
  private static RuntimeException falha;

  final int portaDaApi = SistemaDoTeste.portaLivre();
  final int portaDoKafka = SistemaDoTeste.portaLivre();
  final PostgresLocal postgres;
  final ProxyCongelavel proxy;
  private KafkaLocal kafka;
  private SistemaDoTeste sistema;

  private SistemaCompartilhado() {
    postgres = PostgresLocal.builder().fsync(false).iniciar();
    try {
      proxy = new ProxyCongelavel(postgres.porta());
    } catch (IOException e) {
      postgres.close();
      throw new UncheckedIOException(e);
    }
    try {
      kafka = SistemaDoTeste.kafkaNaPorta(portaDoKafka);
      sistema =
          new SistemaDoTeste(
                  postgres,
                  proxy.jdbcUrl(postgres),
                  kafka.bootstrapServers(),
                  URI.create("http://127.0.0.1:" + portaDaApi),
                  TOKEN_DA_API)
              .iniciar();
    } catch (RuntimeException e) {
      fechar();
      throw e;
    }
  }

  SistemaDoTeste sistema() {
    return sistema;
  }

  static synchronized SistemaCompartilhado obter() {
    if (unico != null) {
      return unico;
    }
    if (falha != null) {
      throw new IllegalStateException("the shared system failed to start earlier", falha);
    }
    try {
      unico = new SistemaCompartilhado();
    } catch (RuntimeException e) {
      falha = e;
      throw e;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(unico::fechar, "ponta-a-ponta-shutdown"));
    return unico;
  }

  /** Stops the broker (its data with it): the Kafka-down scenario. */
  void pararKafka() {
    kafka.close();
  }

  /** An empty broker on the same port, as the services knew it. */
  void iniciarKafka() {
    kafka = SistemaDoTeste.kafkaNaPorta(portaDoKafka);
  }

  private void fechar() {
    if (sistema != null) {
      sistema.close();
    }
    try {
      proxy.close();
    } catch (IOException e) {
      // the JVM is ending; the sockets go with it
    }
    if (kafka != null) {
      kafka.close();
    }
    postgres.close();
  }
}
