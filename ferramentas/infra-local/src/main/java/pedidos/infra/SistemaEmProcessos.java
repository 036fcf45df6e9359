package pedidos.infra;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The system as it runs in production, on a given PostgreSQL and Kafka: the migrations run as the
 * owner role, then the relay (and optionally a standby relay), the receptor and the aplicador, each
 * its own {@code java -jar} process from {@code <module>/target} ({@link JarDoServico}), each with
 * its own database role and Kafka user. The local launcher, the end-to-end tests and the end-to-end
 * benchmark all start the system with it, so "the whole system" means one thing.
 *
 * <p>The caller owns the infrastructure (the tests restart Kafka, the benchmark runs it in a JVM of
 * its own to measure its CPU apart): {@link #close()} stops the services only.
 */
public final class SistemaEmProcessos implements AutoCloseable {

  /** The services, with their module, database role and Kafka user. */
  public enum Servico {
    RELAY("publicador-outbox", "relay", PapelNoBanco.PUBLICADOR, UsuarioDoKafka.PUBLICADOR),
    /** A second relay: it waits on the leader lock and takes over when the first dies. */
    RESERVA("publicador-outbox", "reserva", PapelNoBanco.PUBLICADOR, UsuarioDoKafka.PUBLICADOR),
    RECEPTOR("receptor", "receptor", PapelNoBanco.RECEPTOR, null),
    APLICADOR("aplicador", "aplicador", PapelNoBanco.APLICADOR, UsuarioDoKafka.APLICADOR);

    private final String modulo;
    private final String nome;
    private final PapelNoBanco papel;
    private final UsuarioDoKafka usuario;

    Servico(String modulo, String nome, PapelNoBanco papel, UsuarioDoKafka usuario) {
      this.modulo = modulo;
      this.nome = nome;
      this.papel = papel;
      this.usuario = usuario;
    }

    public String modulo() {
      return modulo;
    }

    /** The name of its process: its log file and the prefix of its output. */
    public String nome() {
      return nome;
    }
  }

  private final PostgresLocal postgres;
  private final Duration partida;
  private final int portaDoReceptor;
  private final Map<Servico, ServicoEmProcesso> servicos = new EnumMap<>(Servico.class);

  private SistemaEmProcessos(Builder builder) {
    this.postgres = builder.postgres;
    this.partida = builder.partida;
    this.portaDoReceptor = builder.portaDe(Servico.RECEPTOR);
    if (builder.diretorioDeLogs != null) {
      try {
        Files.createDirectories(builder.diretorioDeLogs);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    for (Servico servico : Servico.values()) {
      if (servico != Servico.RESERVA || builder.comReserva) {
        servicos.put(servico, builder.construir(servico));
      }
    }
  }

  /** The services will use this PostgreSQL (as their own roles) and this Kafka bootstrap. */
  public static Builder builder(PostgresLocal postgres, String bootstrapDoKafka) {
    return new Builder(postgres, bootstrapDoKafka);
  }

  /**
   * As a deployment does: the roles, then the migrations as the owner (services never migrate);
   * then the relay and the aplicador together (the aplicador waits for the relay's topics by
   * itself); the receptor and a standby once the relay is healthy, because the relay's replication
   * slot must exist before the first webhook is stored ({@code snapshot.mode=no_data}). Returns
   * once every service reports healthy; if one fails, the others are stopped before the failure is
   * thrown.
   */
  public SistemaEmProcessos iniciar() {
    postgres.prepararBanco();
    try {
      ServicoEmProcesso relay = servico(Servico.RELAY);
      ServicoEmProcesso aplicador = servico(Servico.APLICADOR);
      relay.iniciar();
      aplicador.iniciar();
      relay.aguardarSaude(partida);
      List<ServicoEmProcesso> outros = new ArrayList<>(servicos.values());
      outros.remove(relay);
      outros.remove(aplicador);
      outros.forEach(ServicoEmProcesso::iniciar);
      aplicador.aguardarSaude(partida);
      outros.forEach(servico -> servico.aguardarSaude(partida));
      return this;
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  public ServicoEmProcesso servico(Servico servico) {
    ServicoEmProcesso processo = servicos.get(servico);
    if (processo == null) {
      throw new IllegalStateException(servico + " is not part of this system (comReserva?)");
    }
    return processo;
  }

  public ServicoEmProcesso receptor() {
    return servico(Servico.RECEPTOR);
  }

  public ServicoEmProcesso relay() {
    return servico(Servico.RELAY);
  }

  public ServicoEmProcesso reserva() {
    return servico(Servico.RESERVA);
  }

  public ServicoEmProcesso aplicador() {
    return servico(Servico.APLICADOR);
  }

  public URI urlDoReceptor() {
    return URI.create("http://127.0.0.1:" + portaDoReceptor);
  }

  public int portaDoReceptor() {
    return portaDoReceptor;
  }

  /** Stops every service, the receptor first, the relays last (before PostgreSQL is stopped). */
  @Override
  public void close() {
    List<ServicoEmProcesso> todos = new ArrayList<>(servicos.values());
    for (int i = todos.size() - 1; i >= 0; i--) {
      todos.get(i).parar();
    }
  }

  /**
   * A port free now and never handed out before in this JVM ({@link Portas#livre()}): a service
   * whose management port equals its own port refuses to start (seen once in CI).
   */
  public static int portaLivre() {
    return Portas.livre();
  }

  /** Everything has a default fit for a test, except the secrets a deployment sets. */
  public static final class Builder {
    private final PostgresLocal postgres;
    private final String bootstrapDoKafka;
    private final Map<Servico, int[]> portas = new EnumMap<>(Servico.class);
    private final Map<Servico, Map<String, String>> ambientes = new EnumMap<>(Servico.class);
    private String segredoDoWebhook = "segredo-local-de-desenvolvimento-32b";
    private String assinaturaDoKafka = AssinaturaLocal.CHAVE;
    private String usuarioDeOps = "ops";
    private String senhaDeOps;
    private Path diretorioDeLogs;
    private PrintStream saida;
    private List<String> opcoesDaJvm;
    private String java;
    private boolean comReserva;
    private Duration partida = Duration.ofMinutes(3);

    private Builder(PostgresLocal postgres, String bootstrapDoKafka) {
      this.postgres = Objects.requireNonNull(postgres);
      this.bootstrapDoKafka = Objects.requireNonNull(bootstrapDoKafka);
    }

    /**
     * The service's own port and its management (actuator) port; both are free ports handed out by
     * {@link #portaLivre()} unless given.
     */
    public Builder portas(Servico servico, int porta, int portaDeGestao) {
      portas.put(servico, new int[] {porta, portaDeGestao});
      return this;
    }

    /** An environment variable of one service on top of the ones this class sets. */
    public Builder ambiente(Servico servico, String variavel, String valor) {
      ambientes.computeIfAbsent(servico, s -> new LinkedHashMap<>()).put(variavel, valor);
      return this;
    }

    /** {@code LOJA_WEBHOOK_SECRET}: the receptor checks the store's signatures with it. */
    public Builder segredoDoWebhook(String segredo) {
      this.segredoDoWebhook = segredo;
      return this;
    }

    /** {@code PEDIDOS_KAFKA_ASSINATURA}: the relay signs records with it, the aplicador checks. */
    public Builder assinaturaDoKafka(String assinatura) {
      this.assinaturaDoKafka = assinatura;
      return this;
    }

    /** The operators' login of every service (the aplicador requires one). */
    public Builder ops(String usuario, String senha) {
      this.usuarioDeOps = usuario;
      this.senhaDeOps = senha;
      return this;
    }

    /** Each service's output goes to {@code <directory>/<name>.log}; none when not set. */
    public Builder diretorioDeLogs(Path diretorio) {
      this.diretorioDeLogs = diretorio;
      return this;
    }

    /** Where the services' prefixed output is copied too; nowhere when not set. */
    public Builder saida(PrintStream saida) {
      this.saida = saida;
      return this;
    }

    /** Replaces {@link ServicoEmProcesso}'s default JVM options for every service. */
    public Builder opcoesDaJvm(List<String> opcoes) {
      this.opcoesDaJvm = List.copyOf(opcoes);
      return this;
    }

    /** The {@code java} the services run with; the one running this JVM by default. */
    public Builder java(String java) {
      this.java = java;
      return this;
    }

    /** Also a standby relay ({@link Servico#RESERVA}). */
    public Builder comReserva(boolean comReserva) {
      this.comReserva = comReserva;
      return this;
    }

    /** How long each service may take to report healthy. */
    public Builder partida(Duration partida) {
      this.partida = Objects.requireNonNull(partida);
      return this;
    }

    /** Builds the processes without starting anything; {@link #iniciar()} starts them. */
    public SistemaEmProcessos construir() {
      if (senhaDeOps == null) {
        throw new IllegalStateException("set the operators' password (ops)");
      }
      return new SistemaEmProcessos(this);
    }

    public SistemaEmProcessos iniciar() {
      return construir().iniciar();
    }

    private int portaDe(Servico servico) {
      return portas.computeIfAbsent(servico, s -> new int[] {portaLivre(), portaLivre()})[0];
    }

    private ServicoEmProcesso construir(Servico servico) {
      int porta = portaDe(servico);
      // With this JVM's java and the default options: the extracted jar, and on JDK 25+ the AOT
      // cache (ArquivoDeClasses, docs/ARRANQUE.md).
      boolean javaDestaJvm = java == null || java.equals(ServicoEmProcesso.javaDestaJvm());
      var partida =
          javaDestaJvm && opcoesDaJvm == null
              ? ArquivoDeClasses.preparar(JarDoServico.de(servico.modulo))
              : new ArquivoDeClasses.Partida(JarDoServico.de(servico.modulo), List.of());
      var processo =
          ServicoEmProcesso.builder(servico.nome, partida.jar())
              .saida(saida)
              .portaDeGestao(portas.get(servico)[1])
              .ambiente("SERVER_PORT", String.valueOf(porta))
              .ambiente("SPRING_DATASOURCE_URL", postgres.jdbcUrl())
              .ambiente("SPRING_DATASOURCE_USERNAME", servico.papel.nome())
              .ambiente("SPRING_DATASOURCE_PASSWORD", servico.papel.senhaLocal())
              .ambiente("SPRING_KAFKA_BOOTSTRAP_SERVERS", bootstrapDoKafka)
              .ambiente("PEDIDOS_OPS_USUARIO", usuarioDeOps)
              .ambiente("PEDIDOS_OPS_SENHA", senhaDeOps)
              .ambiente("PEDIDOS_KAFKA_ASSINATURA", assinaturaDoKafka);
      if (servico == Servico.RECEPTOR) {
        processo.ambiente("LOJA_WEBHOOK_SECRET", segredoDoWebhook);
      }
      // Each service authenticates to Kafka as its own user, under the ACLs of a deployment.
      if (servico.usuario != null) {
        servico.usuario.variaveisDeAmbiente().forEach(processo::ambiente);
      }
      ambientes.getOrDefault(servico, Map.of()).forEach(processo::ambiente);
      if (diretorioDeLogs != null) {
        processo.arquivoDeLog(diretorioDeLogs.resolve(servico.nome + ".log"));
      }
      if (opcoesDaJvm != null) {
        processo.opcoesDaJvm(opcoesDaJvm);
      } else {
        var opcoes = new ArrayList<>(OpcoesDaJvm.doModulo(servico.modulo));
        opcoes.addAll(partida.opcoes());
        processo.opcoesDaJvm(opcoes);
      }
      if (java != null) {
        processo.java(java);
      }
      return processo.construir();
    }
  }
}
