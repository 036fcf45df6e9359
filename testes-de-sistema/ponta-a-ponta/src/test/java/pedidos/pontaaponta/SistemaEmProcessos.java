package pedidos.pontaaponta;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.infra.InfraDeTeste;
import pedidos.infra.KafkaLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import pedidos.infra.ServicoEmProcesso;
import pedidos.infra.UsuarioDoKafka;

/**
 * The system as it runs in production: the receptor, an active relay with a standby, and the
 * applier, each its own {@code java -jar} process, on a real PostgreSQL and a real Kafka.
 */
final class SistemaEmProcessos implements AutoCloseable {

  static final String SEGREDO = "segredo-ponta-a-ponta-com-mais-de-32-bytes";
  private static final Duration PARTIDA = Duration.ofMinutes(3);

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private final PostgresLocal postgres;
  private final String kafka;
  private final int portaDoReceptor = portaLivre();
  final ServicoEmProcesso receptor;
  final ServicoEmProcesso aplicador;
  final ServicoEmProcesso relay;
  final ServicoEmProcesso reserva;

  SistemaEmProcessos(PostgresLocal postgres, String kafka, URI apiDaLoja, String tokenDaApi) {
    this.postgres = postgres;
    this.kafka = kafka;
    // As a deployment does: the roles, then the migrations as the owner; services never migrate.
    postgres.prepararBanco();
    this.receptor =
        servico("receptor", "receptor", PapelNoBanco.RECEPTOR)
            .ambiente("SERVER_PORT", String.valueOf(portaDoReceptor))
            .ambiente("LOJA_WEBHOOK_SECRET", SEGREDO)
            .construir();
    this.aplicador =
        comUsuario(
                servico("aplicador", "aplicador", PapelNoBanco.APLICADOR), UsuarioDoKafka.APLICADOR)
            .ambiente("LOJA_API_URL", apiDaLoja.toString())
            .ambiente("LOJA_API_TOKEN", tokenDaApi)
            .ambiente("LOJA_RECONCILIACAO_INTERVALO", "3s")
            .ambiente("APLICADOR_VARREDURA_IDADE", "4s")
            .ambiente("APLICADOR_VARREDURA_INTERVALO", "1s")
            .construir();
    this.relay =
        comUsuario(
                servico("publicador-outbox", "relay", PapelNoBanco.PUBLICADOR),
                UsuarioDoKafka.PUBLICADOR)
            .construir();
    this.reserva =
        comUsuario(
                servico("publicador-outbox", "reserva", PapelNoBanco.PUBLICADOR),
                UsuarioDoKafka.PUBLICADOR)
            .construir();
  }

  SistemaEmProcessos iniciar() {
    try {
      // The relay first: its slot must exist before traffic (snapshot.mode=no_data); the sweep
      // would still catch what it missed, but the test wants the Kafka path exercised.
      relay.iniciar();
      relay.aguardarSaude(PARTIDA);
      List.of(reserva, receptor, aplicador).forEach(ServicoEmProcesso::iniciar);
      List.of(reserva, receptor, aplicador).forEach(servico -> servico.aguardarSaude(PARTIDA));
      return this;
    } catch (RuntimeException e) {
      // The caller never gets the system to close: one service that fails to start must not
      // leave the others running after the test JVM.
      close();
      throw e;
    }
  }

  URI urlDoReceptor() {
    return URI.create("http://127.0.0.1:" + portaDoReceptor);
  }

  /** The operators' credentials every service of the test gets (the aplicador requires them). */
  static final String USUARIO_DE_OPS = "ops";

  static final String SENHA_DE_OPS = "senha-de-ops-ponta-a-ponta";

  /** The actuator beyond health status is for operators only. */
  static String autorizacaoDeOps() {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((USUARIO_DE_OPS + ":" + SENHA_DE_OPS).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Posts one body to the receptor as the store does: {@code x-loja-signature} is the lowercase hex
   * HMAC-SHA256 of the exact bytes with {@link #SEGREDO}.
   */
  HttpResponse<String> entregar(byte[] corpo) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(urlDoReceptor().resolve("/webhooks/loja"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header(AssinaturaDeWebhook.CABECALHO_DA_LOJA, assinar(corpo))
            .POST(HttpRequest.BodyPublishers.ofByteArray(corpo))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static String assinar(byte[] corpo) {
    return AssinaturaDeWebhook.doSegredo(SEGREDO).daLoja(corpo);
  }

  /**
   * Events the applier's sweep applied since it started: {@code aplicador_eventos_total} with
   * {@code origem="varredura"}, summed over its results, from its Prometheus endpoint. The counter
   * is created at the sweep's first apply, so its absence is zero.
   */
  double aplicadosPelaVarredura() throws IOException, InterruptedException {
    String metricas =
        HTTP.send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:"
                                + aplicador.portaDeGestao()
                                + "/actuator/prometheus"))
                    .header("Authorization", autorizacaoDeOps())
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return metricas
        .lines()
        .filter(linha -> linha.startsWith("aplicador_eventos_total{"))
        .filter(linha -> linha.contains("origem=\"varredura\""))
        .mapToDouble(linha -> Double.parseDouble(linha.substring(linha.lastIndexOf(' ') + 1)))
        .sum();
  }

  /** What the relay's health says about its role: {@code ATIVO}, {@code RESERVA}... */
  static Optional<String> papel(ServicoEmProcesso relay) {
    if (!relay.vivo()) {
      return Optional.empty();
    }
    try {
      String saude =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:" + relay.portaDeGestao() + "/actuator/health"))
                      // The role is a detail: operators only.
                      .header("Authorization", autorizacaoDeOps())
                      .timeout(Duration.ofSeconds(2))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      return Stream.of("ATIVO", "RESERVA", "PARADO")
          .filter(papel -> saude.contains("\"papel\":\"" + papel + "\""))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  @Override
  public void close() {
    // The relay before PostgreSQL stops, or pg_ctl stop waits on its replication connection.
    Stream.of(receptor, aplicador, relay, reserva).forEach(ServicoEmProcesso::parar);
  }

  private ServicoEmProcesso.Builder servico(String modulo, String nome, PapelNoBanco papel) {
    Path jar =
        Path.of(
            "..",
            "..",
            "produto",
            modulo,
            "target",
            modulo + "-" + System.getProperty("versao.do.projeto") + ".jar");
    Path logs = Path.of("target", "logs");
    try {
      Files.createDirectories(logs);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return ServicoEmProcesso.builder(nome, jar)
        .opcoesDaJvm(List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
        .saida(null)
        .arquivoDeLog(logs.resolve(nome + ".log"))
        .portaDeGestao(portaLivre())
        .ambiente("SERVER_PORT", String.valueOf(portaLivre()))
        .ambiente("SPRING_DATASOURCE_URL", postgres.jdbcUrl())
        .ambiente("SPRING_DATASOURCE_USERNAME", papel.nome())
        .ambiente("SPRING_DATASOURCE_PASSWORD", papel.senhaLocal())
        .ambiente("SPRING_KAFKA_BOOTSTRAP_SERVERS", kafka)
        .ambiente("PEDIDOS_OPS_USUARIO", USUARIO_DE_OPS)
        .ambiente("PEDIDOS_OPS_SENHA", SENHA_DE_OPS)
        // The relay signs Kafka records with it and the aplicador verifies them.
        .ambiente("PEDIDOS_KAFKA_ASSINATURA", InfraDeTeste.ASSINATURA_LOCAL);
  }

  /** Each service authenticates as its own Kafka user: the ACLs of a deployment apply. */
  private static ServicoEmProcesso.Builder comUsuario(
      ServicoEmProcesso.Builder servico, UsuarioDoKafka usuario) {
    usuario.variaveisDeAmbiente().forEach(servico::ambiente);
    return servico;
  }

  /**
   * A port free now and never handed out before in this JVM: the kernel may give a just-closed
   * ephemeral port again, and a service whose management port equals its own port refuses to start
   * (seen once in CI).
   */
  static synchronized int portaLivre() {
    while (true) {
      try (ServerSocket socket = new ServerSocket(0)) {
        if (PORTAS_DADAS.add(socket.getLocalPort())) {
          return socket.getLocalPort();
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static final Set<Integer> PORTAS_DADAS = new HashSet<>();

  static KafkaLocal kafkaNaPorta(int porta) {
    return KafkaLocal.builder().porta(porta).autenticacao(true).iniciar();
  }
}
