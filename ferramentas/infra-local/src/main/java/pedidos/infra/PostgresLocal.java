package pedidos.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL (zonky binaries of any supported major version, 17 unless told otherwise)
 * configured for logical decoding, on a port and data directory that stay the same across {@link
 * #parar()} and {@link #iniciar()}.
 */
public final class PostgresLocal implements AutoCloseable {

  /** Environment variable the local launcher reads the port from. */
  public static final String VARIAVEL_DA_PORTA = "LOCAL_POSTGRES_PORT";

  /** System property naming the major version to run (Maven's test executions set it). */
  public static final String PROPRIEDADE_DA_VERSAO = "pedidos.postgres.versao";

  /** Environment variable naming the major version, when the system property is not set. */
  public static final String VARIAVEL_DA_VERSAO = "LOCAL_POSTGRES_VERSION";

  /** The version the whole test suite and the local run use unless told otherwise. */
  public static final String VERSAO_PADRAO = "17";

  /** Where infra-local's build unpacks each version's binaries (see its pom). */
  private static final String BINARIOS = "/pedidos/infra/postgres/%s/postgres-%s-%s.txz";

  private static final Logger log = LoggerFactory.getLogger(PostgresLocal.class);
  private static final Pattern NOME_DE_BANCO = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
  // initdb runs with trust authentication: the password is accepted whatever it is, but clients
  // and Spring still want one.
  private static final String USUARIO = "postgres";
  private static final String SENHA = "postgres";

  private final int porta;
  private final String versao;
  private final Path dados;
  private final DiretorioTemporario temporario;
  private final boolean fsync;
  private final String banco;
  private final Duration esperaDeInicio;
  private final Map<String, String> parametros;
  private final PGSimpleDataSource dataSource;
  private EmbeddedPostgres servidor;
  private boolean fechado;

  private PostgresLocal(Builder builder, int porta, Path dados, DiretorioTemporario temporario) {
    this.porta = porta;
    this.versao = builder.versao;
    this.dados = dados;
    this.temporario = temporario;
    this.fsync = builder.fsync;
    this.banco = builder.banco;
    this.esperaDeInicio = builder.esperaDeInicio;
    this.parametros = Map.copyOf(builder.parametros);
    this.dataSource = new PGSimpleDataSource();
    dataSource.setUrl(jdbcUrl());
    dataSource.setUser(USUARIO);
    dataSource.setPassword(SENHA);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts the server again after {@link #parar()}, same port, same data; no-op if running. */
  public synchronized void iniciar() {
    if (fechado) {
      throw new IllegalStateException("PostgresLocal on port " + porta + " is closed");
    }
    if (servidor != null) {
      return;
    }
    garantirDiretorioSemDono(dados);
    PostmasterOrfao.pararSeVivo(dados);
    garantirMesmaVersao(dados, versao);
    Portas.garantirLivre(porta, VARIAVEL_DA_PORTA);
    long inicio = System.nanoTime();
    try {
      servidor = configuracao().start();
    } catch (IOException | RuntimeException | ExceptionInInitializerError e) {
      // zonky may have launched the postmaster before giving up on it.
      PostmasterOrfao.pararSeVivo(dados);
      throw new IllegalStateException(
          "PostgreSQL did not start on port " + porta + " with data in " + dados, e);
    }
    criarBancoSeFaltar();
    log.info(
        "PostgreSQL {} ready on port {} in {} ms (data in {})",
        versao,
        porta,
        Duration.ofNanos(System.nanoTime() - inicio).toMillis(),
        dados);
  }

  /** Fast shutdown (clients are disconnected); the data directory is kept. */
  public synchronized void parar() {
    if (servidor == null) {
      return;
    }
    EmbeddedPostgres parando = servidor;
    servidor = null;
    try {
      parando.close();
    } catch (IOException e) {
      log.warn("Error stopping PostgreSQL on port {}", porta, e);
    }
    // zonky's pg_ctl stop gives up after 5 s and only logs it; the port must really be free.
    PostmasterOrfao.pararSeVivo(dados);
  }

  public synchronized boolean rodando() {
    return servidor != null;
  }

  /** Stops the server and deletes the data directory unless it was given by the caller. */
  @Override
  public synchronized void close() {
    if (fechado) {
      return;
    }
    try {
      parar();
    } finally {
      fechado = true;
      if (temporario != null) {
        temporario.close();
      }
    }
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://localhost:" + porta + "/" + banco;
  }

  public String usuario() {
    return USUARIO;
  }

  public String senha() {
    return SENHA;
  }

  public int porta() {
    return porta;
  }

  /** The major version running, e.g. {@code "17"}. */
  public String versao() {
    return versao;
  }

  public String banco() {
    return banco;
  }

  public Path diretorioDeDados() {
    return dados;
  }

  /** Unpooled: each {@code getConnection()} opens a new connection; survives restarts. */
  public DataSource dataSource() {
    return dataSource;
  }

  /** Unpooled, connected as one of the system's roles (see {@link #prepararPapeis()}). */
  public DataSource dataSource(PapelNoBanco papel) {
    PGSimpleDataSource comPapel = new PGSimpleDataSource();
    comPapel.setUrl(jdbcUrl());
    comPapel.setUser(papel.nome());
    comPapel.setPassword(papel.senhaLocal());
    return comPapel;
  }

  /**
   * What a deployment's administrator does once: the system's roles (the relay's with {@code
   * REPLICATION}), and the owner role made owner of the database and of whatever an older version
   * created there as a superuser. Idempotent.
   */
  public synchronized void prepararPapeis() {
    PreparoDoBanco.prepararPapeis(dataSource, banco);
  }

  /**
   * The roles ({@link #prepararPapeis()}), then every migration on the classpath, run as the owner
   * role: what a deployment's migration step does before the services start.
   */
  public synchronized void prepararBanco() {
    PreparoDoBanco.prepararBanco(dataSource, jdbcUrl());
  }

  private EmbeddedPostgres.Builder configuracao() {
    EmbeddedPostgres.Builder configuracao =
        EmbeddedPostgres.builder()
            .setPort(porta)
            .setDataDirectory(dados)
            // zonky's clean mode deletes the directory on close; restarts need it kept.
            .setCleanDataDirectory(false)
            // Shutdown order (relay, Kafka, then Postgres) belongs to InfraLocal, not to zonky.
            .setRegisterShutdownHook(false)
            .setPGStartupWait(esperaDeInicio)
            .setPgBinaryResolver(
                (sistema, arquitetura) -> {
                  String recurso =
                      BINARIOS.formatted(versao, sistema.toLowerCase(Locale.ROOT), arquitetura);
                  InputStream binarios = PostgresLocal.class.getResourceAsStream(recurso);
                  if (binarios == null) {
                    throw new IOException(
                        "no PostgreSQL " + versao + " binaries for " + sistema + "/" + arquitetura);
                  }
                  return binarios;
                })
            .setServerConfig("wal_level", "logical")
            // zonky defaults to off: commits acknowledged before they are durable.
            .setServerConfig("synchronous_commit", "on")
            // zonky always passes -F; this -c comes after it and wins.
            .setServerConfig("fsync", fsync ? "on" : "off")
            .setServerConfig("max_replication_slots", "20")
            .setServerConfig("max_wal_senders", "20")
            // A stalled slot must not fill the disk.
            .setServerConfig("max_slot_wal_keep_size", "1GB")
            .setServerConfig("max_connections", "300");
    ClientesSilenciosos.PARAMETROS.forEach(configuracao::setServerConfig);
    parametros.forEach(configuracao::setServerConfig);
    return configuracao;
  }

  private void criarBancoSeFaltar() {
    try (Connection conexao = servidor.getPostgresDatabase().getConnection()) {
      try (PreparedStatement existe =
          conexao.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
        existe.setString(1, banco);
        try (ResultSet resultado = existe.executeQuery()) {
          if (resultado.next()) {
            return;
          }
        }
      }
      try (Statement criar = conexao.createStatement()) {
        criar.execute("CREATE DATABASE " + banco);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not create database " + banco, e);
    }
  }

  /** A data directory of another major version would not start, with an obscure message. */
  private static void garantirMesmaVersao(Path dados, String versao) {
    Path arquivo = dados.resolve("PG_VERSION");
    if (!Files.exists(arquivo)) {
      return;
    }
    try {
      String existente = Files.readString(arquivo).trim();
      if (!existente.equals(versao)) {
        throw new IllegalStateException(
            "data directory "
                + dados
                + " holds PostgreSQL "
                + existente
                + " data, but PostgreSQL "
                + versao
                + " was asked for: start with "
                + existente
                + " or wipe the data (the local run's --limpo)");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** zonky holds a lock on {@code epg-lock} while its server runs; a live holder is not ours. */
  private static void garantirDiretorioSemDono(Path dados) {
    Path arquivo = dados.resolve("epg-lock");
    try (FileChannel canal = FileChannel.open(arquivo, StandardOpenOption.WRITE);
        FileLock trava = canal.tryLock()) {
      if (trava == null) {
        throw emUso(dados);
      }
    } catch (NoSuchFileException e) {
      // Never started here yet.
    } catch (OverlappingFileLockException e) {
      throw emUso(dados);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static IllegalStateException emUso(Path dados) {
    return new IllegalStateException(
        "data directory " + dados + " is in use by another running PostgreSQL of this project");
  }

  static String versaoPedida(UnaryOperator<String> propriedades, UnaryOperator<String> ambiente) {
    String pedida = propriedades.apply(PROPRIEDADE_DA_VERSAO);
    if (pedida == null || pedida.isBlank()) {
      pedida = ambiente.apply(VARIAVEL_DA_VERSAO);
    }
    return pedida == null || pedida.isBlank() ? VERSAO_PADRAO : validarVersao(pedida.trim());
  }

  /** The major versions whose binaries this build packaged. */
  public static List<String> versoesDisponiveis() {
    return Stream.iterate(10, versao -> versao <= 40, versao -> versao + 1)
        .map(String::valueOf)
        .filter(
            versao ->
                PostgresLocal.class.getResource(BINARIOS.formatted(versao, "linux", "x86_64"))
                    != null)
        .toList();
  }

  private static String validarVersao(String versao) {
    List<String> disponiveis = versoesDisponiveis();
    if (!disponiveis.contains(versao)) {
      throw new IllegalArgumentException(
          "PostgreSQL '" + versao + "' is not available here; choose one of " + disponiveis);
    }
    return versao;
  }

  /** Options; everything has a default fit for tests except {@link #fsync(boolean)}. */
  public static final class Builder {
    private int porta;
    private Path diretorioDeDados;
    private boolean comecarLimpo;
    private boolean fsync = true;
    private String banco = "pedidos";
    private String versao = versaoPedida(System::getProperty, System::getenv);
    private Duration esperaDeInicio = Duration.ofSeconds(60);
    private final Map<String, String> parametros = new LinkedHashMap<>();

    private Builder() {}

    /**
     * A server setting on top of the ones every user gets (logical WAL, durable commits...), e.g.
     * the benchmark's {@code track_commit_timestamp}; it wins over the default of the same name.
     */
    public Builder parametro(String nome, String valor) {
      parametros.put(Objects.requireNonNull(nome), Objects.requireNonNull(valor));
      return this;
    }

    /** 0 (the default) picks a free port once; restarts keep it. */
    public Builder porta(int porta) {
      this.porta = Portas.validar(porta);
      return this;
    }

    /**
     * Keeps the data in this directory across runs; without it a scratch directory is used and
     * deleted on {@link #close()}.
     */
    public Builder diretorioDeDados(Path diretorio) {
      this.diretorioDeDados = diretorio;
      return this;
    }

    /** Wipes {@link #diretorioDeDados(Path)} before the first start. */
    public Builder comecarLimpo(boolean comecarLimpo) {
      this.comecarLimpo = comecarLimpo;
      return this;
    }

    /** Off trades crash safety of the whole cluster for speed; fine for throwaway test data. */
    public Builder fsync(boolean fsync) {
      this.fsync = fsync;
      return this;
    }

    public Builder banco(String banco) {
      if (!NOME_DE_BANCO.matcher(banco).matches()) {
        throw new IllegalArgumentException("database name must match " + NOME_DE_BANCO);
      }
      this.banco = banco;
      return this;
    }

    /**
     * The major version to run ({@code "15"} to {@code "18"}); by default the system property
     * {@value #PROPRIEDADE_DA_VERSAO}, then {@value #VARIAVEL_DA_VERSAO}, then {@value
     * #VERSAO_PADRAO}.
     */
    public Builder versao(String versao) {
      this.versao = validarVersao(versao);
      return this;
    }

    /** How long to wait for the server to accept connections (machines under load are slow). */
    public Builder esperaDeInicio(Duration espera) {
      this.esperaDeInicio = Objects.requireNonNull(espera);
      return this;
    }

    public PostgresLocal iniciar() {
      int portaEscolhida = porta == 0 ? Portas.livre() : porta;
      DiretorioTemporario temporario = null;
      Path dados;
      if (diretorioDeDados != null) {
        dados = prepararPersistente(diretorioDeDados.toAbsolutePath().normalize());
      } else {
        temporario =
            DiretorioTemporario.criar(
                "pg-", abandonado -> PostmasterOrfao.pararSeVivo(abandonado.resolve("dados")));
        dados = temporario.caminho().resolve("dados");
      }
      PostgresLocal postgres = new PostgresLocal(this, portaEscolhida, dados, temporario);
      try {
        postgres.iniciar();
        return postgres;
      } catch (RuntimeException e) {
        postgres.close();
        throw e;
      }
    }

    private Path prepararPersistente(Path dados) {
      try {
        if (comecarLimpo && Files.exists(dados)) {
          // A postmaster still running on the directory would be writing into what we delete.
          garantirDiretorioSemDono(dados);
          PostmasterOrfao.pararSeVivo(dados);
          DiretorioTemporario.apagarArvore(dados);
        }
        return Files.createDirectories(dados);
      } catch (IOException e) {
        throw new UncheckedIOException("could not prepare " + dados, e);
      }
    }
  }
}
