package pedidos.simulador;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.contrato.TopicosDoKafka;

/**
 * The store, run against the real system: for end-to-end tests, the local demo and benchmarks.
 *
 * <pre>{@code
 * try (Simulacao simulacao = Simulacao.builder()
 *     .receptor(URI.create("http://127.0.0.1:8080")).segredo(segredo)
 *     .banco(jdbcUrl, usuario, senha).kafka(bootstrapServers)
 *     .pedidos(200).construir()) {
 *   URI api = simulacao.iniciarApi();      // configure the applier's LOJA_API_URL with it
 *   simulacao.entregar();                  // blocks until every copy is acknowledged or refused
 *   Relatorio relatorio = simulacao.verificar();
 *   assert relatorio.ok() : relatorio.texto();
 * }
 * }</pre>
 */
public final class Simulacao implements AutoCloseable {

  private final Configuracao configuracao;
  private final VistasServidas vistas = new VistasServidas();
  private final RegistroDeEntregas entregas = new RegistroDeEntregas();
  private volatile Verdade verdade = Verdade.VAZIA;
  private ApiDaLoja api;
  private SistemaDeSeparacao separacao;
  private List<PedidoGerado> pedidos;
  private ResumoDaEntrega entrega;

  private Simulacao(Configuracao configuracao) {
    this.configuracao = configuracao;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts the orders API (idempotent). Before {@link #entregar()} it serves no orders: the store
   * has none yet.
   *
   * @return its base URL, for the applier's {@code LOJA_API_URL}
   */
  public synchronized URI iniciarApi() {
    if (api == null) {
      api =
          ApiDaLoja.iniciar(
              configuracao.enderecoDaApi(),
              configuracao.portaDaApi(),
              configuracao.tokenDaApi(),
              () -> verdade,
              vistas,
              configuracao.relogio());
    }
    return api.url();
  }

  /** The token the applier must send ({@code LOJA_API_TOKEN}). */
  public String tokenDaApi() {
    return configuracao.tokenDaApi();
  }

  /** Starts consuming {@code separacao.efeitos} (idempotent); {@link #entregar()} calls it. */
  public synchronized void iniciarSeparacao() {
    if (configuracao.kafka() == null) {
      throw new IllegalStateException("no Kafka configured: the picking side is not checked");
    }
    if (separacao == null) {
      String prefixo = "ord_" + configuracao.prefixo() + "_";
      separacao =
          SistemaDeSeparacao.iniciar(
              configuracao.kafka(),
              configuracao.clienteDoKafka(),
              configuracao.topicoDeEfeitos(),
              id -> id.startsWith(prefixo));
    }
  }

  /**
   * Generates the store's orders from now on and delivers their webhooks; returns when every copy
   * is acknowledged, refused or past the delivery deadline. Once per simulation.
   */
  public ResumoDaEntrega entregar() throws InterruptedException {
    synchronized (this) {
      if (pedidos != null) {
        throw new IllegalStateException("already delivered");
      }
      if (configuracao.kafka() != null) {
        iniciarSeparacao();
      }
      pedidos =
          Gerador.gerar(
              configuracao.semente(),
              configuracao.pedidos(),
              configuracao.prefixo(),
              configuracao.relogio().instant(),
              configuracao.taxa());
    }
    // From here on the API shows each order as its events happen.
    verdade = new Verdade(pedidos);
    PlanoDeEntrega plano =
        PlanoDeEntrega.planejar(
            pedidos,
            configuracao.semente(),
            configuracao.perda(),
            configuracao.duplicacao(),
            configuracao.atrasoMaximo());
    var entregador =
        new Entregador(
            configuracao.receptor(),
            AssinaturaDeWebhook.doSegredo(configuracao.segredo()),
            configuracao.concorrencia(),
            configuracao.timeout(),
            configuracao.reenvioInicial(),
            configuracao.reenvioMaximo(),
            configuracao.relogio());
    ScheduledExecutorService relator =
        Executors.newSingleThreadScheduledExecutor(
            tarefa -> {
              Thread thread = new Thread(tarefa, "progresso");
              thread.setDaemon(true);
              return thread;
            });
    try {
      relator.scheduleAtFixedRate(
          () -> configuracao.progresso().accept(entregas.progresso("entrega")),
          1,
          1,
          TimeUnit.SECONDS);
      ResumoDaEntrega resumo = entregador.entregar(plano, entregas, configuracao.prazoDeEntrega());
      synchronized (this) {
        entrega = resumo;
      }
    } finally {
      relator.shutdownNow();
    }
    configuracao.progresso().accept(entregas.progresso("entrega"));
    return entrega;
  }

  /**
   * Waits (up to the configured wait) until the system converged, and reports. Needs the database
   * and a finished {@link #entregar()}; may be called again to wait more.
   */
  public Relatorio verificar() throws InterruptedException {
    List<PedidoGerado> gerados;
    ResumoDaEntrega resumo;
    synchronized (this) {
      if (entrega == null) {
        throw new IllegalStateException("deliver first");
      }
      if (configuracao.jdbcUrl() == null) {
        throw new IllegalStateException("no database configured");
      }
      gerados = pedidos;
      resumo = entrega;
    }
    var verificador =
        new Verificador(
            gerados,
            entregas,
            vistas,
            separacao,
            new BancoDoSistema(
                configuracao.jdbcUrl(), configuracao.usuario(), configuracao.senha()),
            configuracao.exigirVerdadeFinal(),
            configuracao.intervaloDeVerificacao());
    return verificador.verificar(
        resumo,
        configuracao.espera(),
        divergencias ->
            configuracao
                .progresso()
                .accept(entregas.progresso("entrega").naVerificacao(divergencias)));
  }

  /** {@link #entregar()} then {@link #verificar()}. */
  public Relatorio executar() throws InterruptedException {
    entregar();
    return verificar();
  }

  /** The ids of the generated orders; empty before {@link #entregar()}. */
  public synchronized List<String> pedidos() {
    return pedidos == null ? List.of() : pedidos.stream().map(PedidoGerado::id).toList();
  }

  /** Stops the API and the picking consumer. */
  @Override
  public synchronized void close() {
    try {
      if (separacao != null) {
        separacao.close();
      }
    } finally {
      if (api != null) {
        api.close();
      }
    }
  }

  record Configuracao(
      URI receptor,
      String segredo,
      String jdbcUrl,
      String usuario,
      String senha,
      String kafka,
      Map<String, Object> clienteDoKafka,
      String topicoDeEfeitos,
      int pedidos,
      double taxa,
      double perda,
      double duplicacao,
      int concorrencia,
      Duration atrasoMaximo,
      Duration timeout,
      Duration reenvioInicial,
      Duration reenvioMaximo,
      Duration prazoDeEntrega,
      String enderecoDaApi,
      int portaDaApi,
      String tokenDaApi,
      Duration espera,
      Duration intervaloDeVerificacao,
      long semente,
      String prefixo,
      boolean exigirVerdadeFinal,
      Clock relogio,
      Consumer<Progresso> progresso) {}

  /** Every option has a default except the receptor and the secret. */
  public static final class Builder {
    private URI receptor;
    private String segredo;
    private String jdbcUrl;
    private String usuario;
    private String senha;
    private String kafka;
    private Map<String, Object> clienteDoKafka = Map.of();
    private String topicoDeEfeitos = TopicosDoKafka.EFEITOS;
    private int pedidos = 200;
    private double taxa = 300;
    private double perda = 0.05;
    private double duplicacao = 0.3;
    private int concorrencia = 8;
    private Duration atrasoMaximo = Duration.ofSeconds(2);
    private Duration timeout = Duration.ofSeconds(5);
    private Duration reenvioInicial = Duration.ofMillis(100);
    private Duration reenvioMaximo = Duration.ofSeconds(5);
    private Duration prazoDeEntrega = Duration.ofMinutes(2);
    private String enderecoDaApi;
    private int portaDaApi;
    private String tokenDaApi = UUID.randomUUID().toString();
    private Duration espera = Duration.ofSeconds(120);
    private Duration intervaloDeVerificacao = Duration.ofSeconds(1);
    private long semente = 1;
    private String prefixo;
    private boolean exigirVerdadeFinal = true;
    private Clock relogio = Clock.systemUTC();
    private Consumer<Progresso> progresso = p -> {};

    private Builder() {}

    /** The receptor's base URL; webhooks go to {@code /webhooks/loja} under it. */
    public Builder receptor(URI receptor) {
      this.receptor = receptor;
      return this;
    }

    /** The shared secret the webhooks are signed with. */
    public Builder segredo(String segredo) {
      this.segredo = segredo;
      return this;
    }

    /** The system's database, read to verify; without it {@link #verificar()} is refused. */
    public Builder banco(String jdbcUrl, String usuario, String senha) {
      this.jdbcUrl = jdbcUrl;
      this.usuario = usuario;
      this.senha = senha;
      return this;
    }

    /** The broker of {@code separacao.efeitos}; without it the picking side is not checked. */
    public Builder kafka(String bootstrapServers) {
      return kafka(bootstrapServers, Map.of());
    }

    /**
     * @param cliente more settings of the consumer, with Kafka's names: the SASL or TLS settings of
     *     a broker that wants them ({@code security.protocol}, {@code sasl.jaas.config}...)
     */
    public Builder kafka(String bootstrapServers, Map<String, ?> cliente) {
      this.kafka = bootstrapServers;
      this.clienteDoKafka = Map.copyOf(cliente);
      return this;
    }

    public Builder topicoDeEfeitos(String topico) {
      this.topicoDeEfeitos = topico;
      return this;
    }

    public Builder pedidos(int pedidos) {
      this.pedidos = pedidos;
      return this;
    }

    /** Events per second on the store's timeline: first deliveries follow it. */
    public Builder taxa(double eventosPorSegundo) {
      this.taxa = eventosPorSegundo;
      return this;
    }

    /** The fraction of events never delivered (only reconciliation can recover them). */
    public Builder perda(double fracao) {
      this.perda = fracao;
      return this;
    }

    /** The fraction of delivered events sent two or three times. */
    public Builder duplicacao(double fracao) {
      this.duplicacao = fracao;
      return this;
    }

    /** Requests in flight at once. */
    public Builder concorrencia(int requisicoes) {
      this.concorrencia = requisicoes;
      return this;
    }

    /** Each copy leaves up to this long after its event happened: arrivals come shuffled. */
    public Builder atrasoMaximo(Duration atraso) {
      this.atrasoMaximo = atraso;
      return this;
    }

    /** Of each webhook request; no answer by then means a redelivery. */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** The back-off between redeliveries of a copy: doubling from {@code inicial}, capped. */
    public Builder reenvio(Duration inicial, Duration maximo) {
      this.reenvioInicial = inicial;
      this.reenvioMaximo = maximo;
      return this;
    }

    /** After this the copies still failing are given up. */
    public Builder prazoDeEntrega(Duration prazo) {
      this.prazoDeEntrega = prazo;
      return this;
    }

    /** 0 (the default) picks a free port. */
    /** Where the orders API listens; loopback unless told (e.g. {@code 0.0.0.0} in a container). */
    public Builder enderecoDaApi(String endereco) {
      this.enderecoDaApi = endereco;
      return this;
    }

    public Builder portaDaApi(int porta) {
      this.portaDaApi = porta;
      return this;
    }

    /** A random one by default. */
    public Builder tokenDaApi(String token) {
      this.tokenDaApi = token;
      return this;
    }

    /** How long {@link #verificar()} waits for the system to converge. */
    public Builder espera(Duration espera) {
      this.espera = espera;
      return this;
    }

    public Builder intervaloDeVerificacao(Duration intervalo) {
      this.intervaloDeVerificacao = intervalo;
      return this;
    }

    /** The same seed (and prefix) generates the same orders and the same delivery plan. */
    public Builder semente(long semente) {
      this.semente = semente;
      return this;
    }

    /**
     * Embedded in every order and event id, so runs against one database never collide; by default
     * derived from the current time.
     */
    public Builder prefixo(String prefixo) {
      this.prefixo = prefixo;
      return this;
    }

    /**
     * Whether every order's last event must reach the system, through a webhook or through
     * reconciliation (default true). Turn it off for a system running without reconciliation.
     */
    public Builder exigirVerdadeFinal(boolean exigir) {
      this.exigirVerdadeFinal = exigir;
      return this;
    }

    public Builder relogio(Clock relogio) {
      this.relogio = relogio;
      return this;
    }

    /** Told the progress once a second during delivery and after each verification round. */
    public Builder progresso(Consumer<Progresso> progresso) {
      this.progresso = progresso;
      return this;
    }

    public Simulacao construir() {
      Objects.requireNonNull(receptor, "receptor");
      Objects.requireNonNull(relogio, "relogio");
      Objects.requireNonNull(progresso, "progresso");
      exigir(segredo != null, "the webhook secret is required");
      AssinaturaDeWebhook.doSegredo(segredo); // validates the secret
      exigir(pedidos >= 1, "pedidos must be at least 1");
      exigir(taxa > 0 && Double.isFinite(taxa), "taxa must be positive");
      exigir(perda >= 0 && perda <= 1, "perda must be within 0..1");
      exigir(duplicacao >= 0 && duplicacao <= 1, "duplicacao must be within 0..1");
      exigir(concorrencia >= 1, "concorrencia must be at least 1");
      exigir(portaDaApi >= 0 && portaDaApi <= 65535, "portaDaApi must be within 0..65535");
      exigir(tokenDaApi != null && !tokenDaApi.isBlank(), "tokenDaApi must not be blank");
      exigir(topicoDeEfeitos != null && !topicoDeEfeitos.isBlank(), "topicoDeEfeitos is blank");
      exigir(jdbcUrl == null || usuario != null, "banco needs a user");
      for (Duration duracao :
          List.of(atrasoMaximo, espera, reenvioInicial, reenvioMaximo, prazoDeEntrega)) {
        exigir(duracao != null && !duracao.isNegative(), "durations must not be negative");
      }
      exigir(
          timeout != null && !timeout.isNegative() && !timeout.isZero(),
          "timeout must be positive");
      exigir(
          intervaloDeVerificacao != null && !intervaloDeVerificacao.isNegative(),
          "intervaloDeVerificacao must not be negative");
      String prefixoEfetivo =
          prefixo != null ? prefixo : Long.toString(System.currentTimeMillis(), 36);
      exigir(
          Gerador.PREFIXO.matcher(prefixoEfetivo).matches(),
          "prefixo must match " + Gerador.PREFIXO);
      return new Simulacao(
          new Configuracao(
              receptor,
              segredo,
              jdbcUrl,
              usuario,
              senha,
              kafka,
              clienteDoKafka,
              topicoDeEfeitos,
              pedidos,
              taxa,
              perda,
              duplicacao,
              concorrencia,
              atrasoMaximo,
              timeout,
              reenvioInicial,
              reenvioMaximo,
              prazoDeEntrega,
              enderecoDaApi,
              portaDaApi,
              tokenDaApi,
              espera,
              intervaloDeVerificacao,
              semente,
              prefixoEfetivo,
              exigirVerdadeFinal,
              relogio,
              progresso));
    }

    private static void exigir(boolean condicao, String mensagem) {
      if (!condicao) {
        throw new IllegalArgumentException(mensagem);
      }
    }
  }
}
