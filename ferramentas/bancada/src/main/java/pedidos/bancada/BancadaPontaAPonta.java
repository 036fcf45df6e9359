package pedidos.bancada;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import pedidos.infra.JarDoServico;
import pedidos.infra.PostgresLocal;
import pedidos.infra.SistemaEmProcessos;
import pedidos.infra.SistemaEmProcessos.Servico;

/**
 * The end-to-end benchmark (issues 4 and 17), not a test. Everything on this machine, as real
 * processes: PostgreSQL (infra-local's settings, fsync on, plus {@code track_commit_timestamp} and
 * the benchmark's memory settings), a KRaft broker in its own JVM ({@link KafkaDaBancada}), the
 * system started by infra-local's {@link SistemaEmProcessos} (the relay, the receptor and the
 * aplicador from their jars), and the load generator in its own JVM ({@link CargaConstante}).
 *
 * <p>The load starts as soon as every service reports healthy and never pauses: the first {@code
 * frio} seconds are the cold window, then {@code aquecimento} seconds, then the {@code quente}
 * seconds of the warm window. For each window, and each 10 s of it: latency from the inbox insert
 * to the apply by PostgreSQL's own timestamps ({@code recebido_em}, {@code aplicado_em}, and the
 * apply's commit timestamp), the receptor's answer as the load generator saw it, and CPU
 * milliseconds per event of each process from {@code /proc}, beside the machine's busy, steal and
 * load average. It builds nothing: {@code bench/ponta-a-ponta.sh} builds the jars if missing.
 */
public final class BancadaPontaAPonta {

  static final String SEGREDO = "segredo-do-benchmark-com-mais-de-32-bytes";
  private static final String PREFIXO = "b";

  private final OpcoesDaBancada opcoes;
  private final Path trabalho;
  private PostgresLocal postgres;
  private ProcessoJava kafka;
  private SistemaEmProcessos sistema;
  private ProcessoJava carga;
  private String comandoDosServicos;
  private String bootstrap;

  private BancadaPontaAPonta(OpcoesDaBancada opcoes, Path trabalho) {
    this.opcoes = opcoes;
    this.trabalho = trabalho;
  }

  public static void main(String[] args) throws Exception {
    Path raiz = JarDoServico.raiz();
    OpcoesDaBancada opcoes;
    try {
      if (List.of(args).contains("--help")) {
        System.out.println(OpcoesDaBancada.USO);
        return;
      }
      opcoes = OpcoesDaBancada.ler(args, raiz);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    Path trabalho = Files.createTempDirectory("ponta-a-ponta-bancada-");
    var bancada = new BancadaPontaAPonta(opcoes, trabalho);
    Runtime.getRuntime().addShutdownHook(new Thread(bancada::pararTudo, "parar-bancada"));
    String relatorio = bancada.executar();
    System.out.println(relatorio);
    if (opcoes.doc() != null) {
      SecaoDoDoc.escrever(opcoes.doc(), relatorio);
      log("wrote " + opcoes.doc());
    }
    log("logs and the load's CSV in " + trabalho);
    System.exit(0);
  }

  private String executar() throws Exception {
    Instant inicioDaBancada = Instant.now();
    log("PostgreSQL " + opcoes.postgres() + " (fsync on), work directory " + trabalho);
    postgres =
        PostgresLocal.builder()
            .versao(opcoes.postgres())
            .fsync(true)
            .parametro("track_commit_timestamp", "on")
            .parametro("shared_buffers", "512MB")
            .parametro("max_wal_size", "8GB")
            .parametro("checkpoint_timeout", "30min")
            .iniciar();
    int portaDoKafka = SistemaEmProcessos.portaLivre();
    log("Kafka in its own JVM on " + portaDoKafka);
    kafka =
        ProcessoJava.iniciar(
            "kafka",
            KafkaDaBancada.class,
            List.of("-Xms1g", "-Xmx1g"),
            List.of(String.valueOf(portaDoKafka)),
            trabalho.resolve("kafka.log"));
    bootstrap = kafka.aguardarLinha("KAFKA PRONTO", Duration.ofMinutes(3)).substring(13).trim();
    // Migrations, then the history, both before the relay's slot exists.
    postgres.prepararBanco();
    log("history: " + opcoes.historico() + " orders applied a day ago");
    HistoricoDaBancada.escrever(
        postgres.dataSource(), opcoes.historico(), opcoes.pedidosPorBloco());

    var construtor =
        SistemaEmProcessos.builder(postgres, bootstrap)
            .java(opcoes.java())
            .segredoDoWebhook(SEGREDO)
            .assinaturaDoKafka("assinatura-local-da-bancada-de-registros-kafka")
            .ops("bancada", HexFormat.of().formatHex(new SecureRandom().generateSeed(16)))
            .saida(null)
            // As the earlier runs: the listener's concurrency spelled out, and a sweep that finds
            // nothing (what is measured is the Kafka path).
            .ambiente(Servico.APLICADOR, "APLICADOR_CONCORRENCIA", "3")
            .ambiente(Servico.APLICADOR, "APLICADOR_VARREDURA_IDADE", "1d");
    if (opcoes.opcoesDaJvm() != null) {
      construtor.opcoesDaJvm(opcoes.opcoesDaJvm());
    }
    if (opcoes.antes() > 0) {
      implantacaoAnterior(construtor);
    }
    sistema = construtor.diretorioDeLogs(trabalho).construir();
    comandoDosServicos = sistema.receptor().comando();
    log("starting the relay and the aplicador, then the receptor: " + comandoDosServicos);
    Path csv = trabalho.resolve("carga.csv");
    Path sinal = trabalho.resolve("medir");
    carga = iniciarCarga("load generator", opcoes.total(), csv, PREFIXO, sinal);
    // Every request signed before the services start; it waits for the go.
    carga.aguardarLinha("PREPARADO", Duration.ofMinutes(5));
    long antesDosServicos = System.nanoTime();
    sistema.iniciar();
    long partidaMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - antesDosServicos);
    Files.createFile(Path.of(sinal + ".inicio"));
    long prontoUs = agoraUs();

    var cpu = new CpuDosProcessos(postgres.diretorioDeDados());
    cpu.acompanhar("receptor", sistema.receptor().pid());
    cpu.acompanhar("relay", sistema.relay().pid());
    cpu.acompanhar("aplicador", sistema.aplicador().pid());
    cpu.acompanhar("kafka", kafka.pid());
    CpuDosProcessos.Amostra naPartida = cpu.ler();
    log("every service healthy " + partidaMs + " ms after the first was started: load started");

    cpu.acompanhar("carga", carga.pid());
    long inicioUs =
        Long.parseLong(carga.aguardarLinha("MEDINDO", Duration.ofMinutes(2)).substring(8).trim());
    log("first event " + (inicioUs - prontoUs) / 1000 + " ms after every service was healthy");
    Map<Integer, String> posicoesDoWal = new HashMap<>();
    Map<Integer, CpuDosProcessos.Amostra> amostras;
    // Opened before the load: the window's only queries are its two WAL positions.
    try (Connection conexaoDoWal = postgres.dataSource().getConnection()) {
      amostras = amostrar(cpu, inicioUs, conexaoDoWal, posicoesDoWal);
    }
    carga.aguardarLinha("measured:", Duration.ofSeconds(opcoes.total() + 180L));
    CpuDosProcessos.Amostra fimDaCarga = cpu.ler();
    Files.createFile(Path.of(sinal + ".fim"));
    int status = carga.aguardarFim(Duration.ofMinutes(1));
    if (status != 0) {
      log(
          "the load generator exited with "
              + status
              + " (see "
              + trabalho.resolve("carga.log")
              + ")");
    }
    List<Medidas> eventos = medir(csv);
    String wal = walDaJanelaQuente(eventos, inicioUs, posicoesDoWal);
    return new RelatorioDaBancada(
                opcoes,
                comandoDosServicos,
                inicioDaBancada,
                partidaMs,
                (inicioUs - prontoUs) / 1000,
                naPartida,
                amostras,
                fimDaCarga,
                cpu.hz,
                eventos,
                inicioUs,
                Files.readAllLines(trabalho.resolve("carga.log"), StandardCharsets.UTF_8))
            .texto()
        + wal;
  }

  /** The warm window's WAL, per event sent in it (its events' own rows and their applies). */
  private String walDaJanelaQuente(
      List<Medidas> eventos, long inicioUs, Map<Integer, String> posicoes) {
    int de = opcoes.frio() + opcoes.aquecimento();
    int naJanela = Medidas.agendadosEntre(eventos, inicioUs, de, opcoes.total()).size();
    try (Connection conexao = postgres.dataSource().getConnection()) {
      return WalDaJanela.texto(conexao, posicoes.get(de), posicoes.get(opcoes.total()), naJanela);
    } catch (SQLException e) {
      // The latency and CPU figures stand without it.
      log("could not read the warm window's WAL: " + e.getMessage());
      return "\n(The warm window's WAL could not be read: " + e.getMessage() + ")\n";
    }
  }

  /**
   * The deployment before the measured one: the services started, {@code antes} seconds of load
   * (orders of their own, {@code rm_...}), every event applied, the services stopped. PostgreSQL
   * and Kafka stay up, so the measured start finds them warm, the relay's slot and the aplicador's
   * committed offsets in place, as a deployment does.
   */
  private void implantacaoAnterior(SistemaEmProcessos.Builder construtor) throws Exception {
    log("a previous deployment: the services under load for " + opcoes.antes() + " s");
    sistema = construtor.diretorioDeLogs(trabalho.resolve("anterior")).construir().iniciar();
    var anterior =
        iniciarCarga("previous load", opcoes.antes(), trabalho.resolve("anterior.csv"), "r", null);
    anterior.aguardarLinha("measured:", Duration.ofSeconds(opcoes.antes() + 180L));
    anterior.aguardarFim(Duration.ofMinutes(1));
    aguardarAplicados("rm\\_%");
    sistema.close();
    sistema = null;
    log("previous deployment stopped; PostgreSQL and Kafka stay up");
  }

  /**
   * The load generator in its own JVM, at the benchmark's rate for {@code segundos}, against the
   * current system's receptor; with a signal file it signs everything first and waits for the go.
   * Its output goes to {@code <csv name>.log}.
   */
  private ProcessoJava iniciarCarga(String nome, int segundos, Path csv, String prefixo, Path sinal)
      throws IOException {
    List<String> argumentos =
        new ArrayList<>(
            List.of(
                sistema.urlDoReceptor().resolve("/webhooks/loja").toString(),
                SEGREDO,
                String.valueOf(opcoes.taxa()),
                "0",
                String.valueOf(segundos),
                csv.toString(),
                prefixo,
                String.valueOf(opcoes.pedidosPorBloco())));
    if (sinal != null) {
      argumentos.add(sinal.toString());
    }
    String log = csv.getFileName().toString().replaceFirst("\\.csv$", ".log");
    return ProcessoJava.iniciar(
        nome, CargaConstante.class, List.of("-Xms1g", "-Xmx1g"), argumentos, trabalho.resolve(log));
  }

  /**
   * CPU at the edges of each window and every 10 s, and the WAL's position at the warm window's
   * edges: the driver sleeps in between (its polling must not cost what it measures).
   */
  private Map<Integer, CpuDosProcessos.Amostra> amostrar(
      CpuDosProcessos cpu, long inicioUs, Connection wal, Map<Integer, String> posicoesDoWal)
      throws IOException, InterruptedException, SQLException {
    var instantes = new TreeSet<Integer>();
    for (int s = 0; s <= opcoes.total(); s += 10) {
      instantes.add(s);
    }
    instantes.add(opcoes.frio());
    instantes.add(opcoes.frio() + opcoes.aquecimento());
    instantes.add(opcoes.total());
    Map<Integer, CpuDosProcessos.Amostra> amostras = new TreeMap<>();
    for (int segundo : instantes) {
      long faltaUs = inicioUs + segundo * 1_000_000L - agoraUs();
      if (faltaUs > 0) {
        TimeUnit.MICROSECONDS.sleep(faltaUs);
      }
      amostras.put(segundo, cpu.ler());
      if (segundo == opcoes.frio() + opcoes.aquecimento() || segundo == opcoes.total()) {
        posicoesDoWal.put(segundo, WalDaJanela.posicao(wal));
      }
    }
    return amostras;
  }

  private static final String LATENCIAS =
      """
      SELECT evento_id,
             (extract(epoch FROM recebido_em) * 1e6)::bigint,
             COALESCE((extract(epoch FROM aplicado_em) * 1e6)::bigint, 0),
             CASE WHEN aplicado_em IS NULL THEN 0
                  ELSE COALESCE((extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1e6)::bigint, 0)
             END,
             kafka_particao, kafka_offset
        FROM webhook_eventos
       WHERE evento_id LIKE ?
      """;

  private static final String PENDENTES =
      "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE ? AND aplicado_em IS NULL";

  /** Waits until every stored event whose id matches is applied, 10 minutes at most. */
  private void aguardarAplicados(String padrao) throws SQLException, InterruptedException {
    try (Connection conexao = postgres.dataSource().getConnection();
        PreparedStatement pendentes = conexao.prepareStatement(PENDENTES)) {
      long prazo = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
      pendentes.setString(1, padrao);
      while (true) {
        try (ResultSet r = pendentes.executeQuery()) {
          r.next();
          if (r.getLong(1) == 0) {
            return;
          }
          if (System.nanoTime() > prazo) {
            log(r.getLong(1) + " events still not applied after 10 minutes: reported as such");
            return;
          }
        }
        TimeUnit.SECONDS.sleep(1); // polling the database outside the measured windows
      }
    }
  }

  /**
   * Waits until every stored event is applied, then joins the load's, the database's and Kafka's
   * records of each event.
   */
  private List<Medidas> medir(Path csv) throws Exception {
    String padrao = PREFIXO + "m\\_%";
    aguardarAplicados(padrao);
    try (Connection conexao = postgres.dataSource().getConnection()) {
      Map<String, Long> publicacoes = PublicacoesDoRelay.ler(bootstrap);
      Map<String, long[]> doBanco = new HashMap<>();
      try (PreparedStatement latencias = conexao.prepareStatement(LATENCIAS)) {
        latencias.setString(1, padrao);
        latencias.setFetchSize(10_000);
        conexao.setAutoCommit(false);
        try (ResultSet r = latencias.executeQuery()) {
          while (r.next()) {
            long particao = r.getLong(5);
            long publicado =
                r.wasNull() ? 0 : publicacoes.getOrDefault(particao + ":" + r.getLong(6), 0L);
            doBanco.put(
                r.getString(1), new long[] {r.getLong(2), r.getLong(3), r.getLong(4), publicado});
          }
        }
        conexao.commit();
      }
      List<Medidas> eventos = new ArrayList<>();
      for (String linha : Files.readAllLines(csv, StandardCharsets.UTF_8)) {
        String[] c = linha.split(",", -1);
        long[] b = doBanco.getOrDefault(c[0], new long[] {0, 0, 0, 0});
        eventos.add(
            new Medidas(
                c[0],
                Long.parseLong(c[2]),
                Long.parseLong(c[3]),
                c[4].isEmpty() ? 0 : Long.parseLong(c[4]),
                Integer.parseInt(c[5]),
                b[0],
                b[1],
                b[2],
                b[3]));
      }
      return eventos;
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the latencies", e);
    }
  }

  private synchronized void pararTudo() {
    // The load, the services (the relay before PostgreSQL: it holds a replication connection),
    // Kafka, PostgreSQL.
    for (AutoCloseable algo : new AutoCloseable[] {carga, sistema, kafka, postgres}) {
      try {
        if (algo != null) {
          algo.close();
        }
      } catch (Exception e) {
        log("while stopping: " + e);
      }
    }
    carga = null;
    sistema = null;
    kafka = null;
    postgres = null;
  }

  static long agoraUs() {
    Instant agora = Instant.now();
    return agora.getEpochSecond() * 1_000_000L + agora.getNano() / 1000;
  }

  static void log(String mensagem) {
    System.err.println(Instant.now().toString().substring(11, 19) + " " + mensagem);
  }
}
