package pedidos.infra;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PostgreSQL and one Kafka, started together, stopped Kafka first.
 *
 * <p>Tests use {@link #compartilhada()}: the pair is started once per test JVM and stopped by a
 * shutdown hook, never per test class.
 */
public final class InfraLocal implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(InfraLocal.class);
  private static final Object TRAVA_DA_COMPARTILHADA = new Object();
  private static InfraLocal compartilhada;
  private static RuntimeException falhaDaCompartilhada;

  private final PostgresLocal postgres;
  private final KafkaLocal kafka;
  private final boolean ehCompartilhada;
  private boolean fechada;

  private InfraLocal(PostgresLocal postgres, KafkaLocal kafka, boolean ehCompartilhada) {
    this.postgres = postgres;
    this.kafka = kafka;
    this.ehCompartilhada = ehCompartilhada;
  }

  /**
   * The JVM-wide instance for tests: random ports, scratch directories, fsync off. Started on the
   * first call; a failed start is remembered so later test classes fail fast with the same cause.
   */
  public static InfraLocal compartilhada() {
    synchronized (TRAVA_DA_COMPARTILHADA) {
      if (compartilhada != null) {
        return compartilhada;
      }
      if (falhaDaCompartilhada != null) {
        throw new IllegalStateException(
            "the shared infrastructure failed to start earlier in this JVM", falhaDaCompartilhada);
      }
      try {
        InfraLocal infra = builder().fsync(false).construir(true);
        Runtime.getRuntime().addShutdownHook(new Thread(infra::parar, "infra-local-shutdown"));
        compartilhada = infra;
        return infra;
      } catch (RuntimeException e) {
        falhaDaCompartilhada = e;
        throw e;
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  public PostgresLocal postgres() {
    return postgres;
  }

  public KafkaLocal kafka() {
    return kafka;
  }

  /** For the local launcher: stop both when the JVM exits (Ctrl-C included). */
  public InfraLocal pararAoSairDaJvm() {
    if (!ehCompartilhada) {
      Runtime.getRuntime().addShutdownHook(new Thread(this::parar, "infra-local-shutdown"));
    }
    return this;
  }

  /**
   * Stops Kafka then PostgreSQL. Refused on the shared instance: other test classes of the JVM
   * still need it, and its shutdown hook stops it.
   */
  @Override
  public void close() {
    if (ehCompartilhada) {
      throw new IllegalStateException(
          "the shared infrastructure is stopped when the JVM exits; do not close it");
    }
    parar();
  }

  private synchronized void parar() {
    if (fechada) {
      return;
    }
    fechada = true;
    long inicio = System.nanoTime();
    // Clients of the broker may still be flushing; Postgres goes last because a CDC relay writing
    // to Kafka reads from it.
    try {
      kafka.close();
    } finally {
      postgres.close();
    }
    log.info(
        "Local infrastructure stopped in {} ms",
        Duration.ofNanos(System.nanoTime() - inicio).toMillis());
  }

  /** Ports, directory and durability of a non-shared instance. */
  public static final class Builder {
    private int portaDoPostgres;
    private int portaDoKafka;
    private Path diretorioDoPostgres;
    private boolean comecarLimpo;
    private boolean fsync = true;

    private Builder() {}

    /** 0 (the default) is a random free port. */
    public Builder portaDoPostgres(int porta) {
      this.portaDoPostgres = Portas.validar(porta);
      return this;
    }

    /** 0 (the default) is a random free port. */
    public Builder portaDoKafka(int porta) {
      this.portaDoKafka = Portas.validar(porta);
      return this;
    }

    /**
     * Ports from {@code LOCAL_POSTGRES_PORT} and {@code LOCAL_KAFKA_PORT}, 5432 and 9092 when
     * unset, so the local run has stable addresses for the user's own tools.
     */
    public Builder portasDoAmbiente() {
      return portasDoAmbiente(System::getenv);
    }

    Builder portasDoAmbiente(UnaryOperator<String> ambiente) {
      this.portaDoPostgres = lerPorta(ambiente, PostgresLocal.VARIAVEL_DA_PORTA, 5432);
      this.portaDoKafka = lerPorta(ambiente, KafkaLocal.VARIAVEL_DA_PORTA, 9092);
      return this;
    }

    /** Persistent PostgreSQL data; scratch directory when not set. */
    public Builder diretorioDoPostgres(Path diretorio) {
      this.diretorioDoPostgres = diretorio;
      return this;
    }

    public Builder comecarLimpo(boolean comecarLimpo) {
      this.comecarLimpo = comecarLimpo;
      return this;
    }

    public Builder fsync(boolean fsync) {
      this.fsync = fsync;
      return this;
    }

    public InfraLocal iniciar() {
      return construir(false);
    }

    int portaPedidaDoPostgres() {
      return portaDoPostgres;
    }

    int portaPedidaDoKafka() {
      return portaDoKafka;
    }

    private InfraLocal construir(boolean ehCompartilhada) {
      long inicio = System.nanoTime();
      PostgresLocal.Builder configuracaoDoPostgres =
          PostgresLocal.builder().porta(portaDoPostgres).comecarLimpo(comecarLimpo).fsync(fsync);
      if (diretorioDoPostgres != null) {
        configuracaoDoPostgres.diretorioDeDados(diretorioDoPostgres);
      }
      // In parallel: Postgres is mostly an external process starting while the broker boots.
      CompletableFuture<PostgresLocal> postgres =
          CompletableFuture.supplyAsync(
              configuracaoDoPostgres::iniciar,
              tarefa -> new Thread(tarefa, "postgres-local-start").start());
      KafkaLocal kafka;
      try {
        // As deployed: clients authenticate and ACLs apply (docs/kafka.md, "Kafka security").
        // Tests also get a TLS listener, to show the services' standard TLS settings at work.
        kafka =
            KafkaLocal.builder()
                .porta(portaDoKafka)
                .autenticacao(true)
                .tls(ehCompartilhada)
                .iniciar();
      } catch (RuntimeException e) {
        postgres.thenAccept(PostgresLocal::close);
        throw e;
      }
      try {
        InfraLocal infra = new InfraLocal(postgres.join(), kafka, ehCompartilhada);
        log.info(
            "Local infrastructure up in {} ms: {} and Kafka on {}",
            Duration.ofNanos(System.nanoTime() - inicio).toMillis(),
            infra.postgres.jdbcUrl(),
            kafka.bootstrapServers());
        return infra;
      } catch (CompletionException e) {
        kafka.close();
        throw e.getCause() instanceof RuntimeException causa
            ? causa
            : new IllegalStateException(e.getCause());
      }
    }

    private static int lerPorta(UnaryOperator<String> ambiente, String variavel, int padrao) {
      String valor = ambiente.apply(variavel);
      if (valor == null || valor.isBlank()) {
        return padrao;
      }
      try {
        return Portas.validar(Integer.parseInt(valor.trim()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            variavel + " must be a port number, got '" + valor + "'");
      }
    }
  }
}
