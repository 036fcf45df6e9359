package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;

/**
 * A failover without a TCP reset: the server stops answering and no packet says so (the old
 * primary's machine is gone, a network partition). A TCP relay in front of PostgreSQL goes silent
 * on command, and a pool with the service's own pgjdbc settings (a shorter socket timeout, so the
 * test takes seconds) frees the waiting thread with a transient failure, then serves again.
 */
class FailoverSemResetTest extends ContextoDoAplicador {

  @Autowired Environment ambiente;

  @Test
  void servidorQueSilenciaNoMeioDeUmComandoNaoPrendeAThreadAlemDoSocketTimeout() throws Exception {
    Map<String, String> configurado =
        Binder.get(ambiente)
            .bind(
                "spring.datasource.hikari.data-source-properties",
                Bindable.mapOf(String.class, String.class))
            .get();
    assertThat(configurado)
        .containsEntry("socketTimeout", "60")
        .containsEntry("tcpKeepAlive", "true")
        .containsKey("connectTimeout");

    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    try (var rele = new ReleSilencioso(postgres.porta())) {
      var config = new HikariConfig();
      config.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + rele.porta() + "/" + postgres.banco());
      config.setUsername(postgres.usuario());
      config.setPassword(postgres.senha());
      config.setMaximumPoolSize(1);
      config.setConnectionTimeout(3_000);
      configurado.forEach(config::addDataSourceProperty);
      config.addDataSourceProperty("socketTimeout", "2");
      try (var pool = new HikariDataSource(config)) {
        var jdbc = JdbcClient.create(pool);
        assertThat(jdbc.sql("SELECT 1").query(Integer.class).single()).isEqualTo(1);

        var comando =
            CompletableFuture.supplyAsync(
                () -> jdbc.sql("SELECT 1 FROM pg_sleep(0.5)").query(Integer.class).single());
        rele.silenciar();
        long inicio = System.nanoTime();
        Throwable falha = null;
        try {
          comando.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          falha = e.getCause();
        }
        assertThat(falha).as("the statement never got its answer").isNotNull();
        assertThat(Duration.ofNanos(System.nanoTime() - inicio))
            .as("freed by the socket timeout, not by the kernel's keepalive (hours)")
            .isLessThan(Duration.ofSeconds(10));
        assertThat(FalhaTransitoria.eh(falha)).as("transient: retried, never settled").isTrue();

        rele.religar();
        assertThat(jdbc.sql("SELECT 2").query(Integer.class).single())
            .as("the pool replaced the dead connection")
            .isEqualTo(2);
      }
    }
  }

  /**
   * Relays TCP to a port; {@link #silenciar()} stops relaying in both directions without closing
   * anything, as a vanished host does; {@link #religar()} drops those connections and relays new
   * ones again.
   */
  private static final class ReleSilencioso implements AutoCloseable {
    private final ServerSocket servidor;
    private final int destino;
    private final List<Socket> abertos = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch silencio = new CountDownLatch(0);
    private volatile boolean silenciado;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    ReleSilencioso(int destino) throws IOException {
      this.destino = destino;
      this.servidor = new ServerSocket();
      servidor.bind(new InetSocketAddress("127.0.0.1", 0));
      threads.execute(this::aceitar);
    }

    int porta() {
      return servidor.getLocalPort();
    }

    void silenciar() {
      silencio = new CountDownLatch(1);
      silenciado = true;
    }

    void religar() throws IOException {
      silenciado = false;
      for (Socket socket : abertos) {
        socket.close();
      }
      abertos.clear();
      silencio.countDown();
    }

    private void aceitar() {
      while (!servidor.isClosed()) {
        try {
          Socket cliente = servidor.accept();
          Socket servidorPg = new Socket("127.0.0.1", destino);
          abertos.add(cliente);
          abertos.add(servidorPg);
          threads.execute(() -> bombear(cliente, servidorPg));
          threads.execute(() -> bombear(servidorPg, cliente));
        } catch (IOException e) {
          return;
        }
      }
    }

    private void bombear(Socket de, Socket para) {
      byte[] buffer = new byte[8192];
      try (InputStream entrada = de.getInputStream();
          OutputStream saida = para.getOutputStream()) {
        int lidos;
        while ((lidos = entrada.read(buffer)) >= 0) {
          if (silenciado) {
            // Swallow what arrives and wait: nothing goes through, nothing is closed.
            silencio.await();
            return;
          }
          saida.write(buffer, 0, lidos);
          saida.flush();
        }
      } catch (IOException | InterruptedException e) {
        // the relay or a side closed
      }
    }

    @Override
    public void close() throws IOException {
      servidor.close();
      religar();
      threads.shutdownNow();
    }
  }
}
