package pedidos.pontaaponta;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.infra.KafkaLocal;
import pedidos.infra.PostgresLocal;
import pedidos.infra.ServicoEmProcesso;
import pedidos.infra.SistemaEmProcessos;
import pedidos.infra.SistemaEmProcessos.Servico;
import pedidos.testes.InfraDeTeste;

/**
 * The system of the end-to-end tests: infra-local's {@link SistemaEmProcessos} (the receptor, an
 * active relay with a standby, and the applier, each its own {@code java -jar} process) with the
 * tests' settings, and what the tests ask of it over HTTP.
 */
final class SistemaDoTeste implements AutoCloseable {

  private static final Path LOGS = Path.of("target", "logs");
  private static final int ERROS_POR_SERVICO = 8;

  static final String SEGREDO = "segredo-ponta-a-ponta-com-mais-de-32-bytes";

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private final SistemaEmProcessos sistema;
  final ServicoEmProcesso receptor;
  final ServicoEmProcesso aplicador;
  final ServicoEmProcesso relay;
  final ServicoEmProcesso reserva;

  /**
   * @param urlDoBanco where every service reaches PostgreSQL (a proxy in front of it, say)
   */
  SistemaDoTeste(
      PostgresLocal postgres, String urlDoBanco, String kafka, URI apiDaLoja, String tokenDaApi) {
    SistemaEmProcessos.Builder construcao = SistemaEmProcessos.builder(postgres, kafka);
    for (Servico servico : Servico.values()) {
      construcao.ambiente(servico, "SPRING_DATASOURCE_URL", urlDoBanco);
    }
    this.sistema =
        construcao
            .comReserva(true)
            .segredoDoWebhook(SEGREDO)
            .assinaturaDoKafka(InfraDeTeste.ASSINATURA_LOCAL)
            .ops(USUARIO_DE_OPS, SENHA_DE_OPS)
            // Small and quick to start: five JVMs share the test machine.
            .opcoesDaJvm(List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
            .diretorioDeLogs(LOGS)
            .ambiente(Servico.APLICADOR, "LOJA_API_URL", apiDaLoja.toString())
            .ambiente(Servico.APLICADOR, "LOJA_API_TOKEN", tokenDaApi)
            .ambiente(Servico.APLICADOR, "LOJA_RECONCILIACAO_INTERVALO", "3s")
            .ambiente(Servico.APLICADOR, "APLICADOR_VARREDURA_IDADE", "4s")
            .ambiente(Servico.APLICADOR, "APLICADOR_VARREDURA_INTERVALO", "1s")
            .construir();
    this.receptor = sistema.receptor();
    this.aplicador = sistema.aplicador();
    this.relay = sistema.relay();
    this.reserva = sistema.reserva();
  }

  /**
   * The last ERROR lines of each service's log, for a failure's message: CI shows the message, not
   * the files in target/logs.
   */
  static String errosRecentes() {
    StringBuilder texto = new StringBuilder("\nlast errors in the services' logs (").append(LOGS);
    texto.append("):");
    try (var arquivos = Files.list(LOGS)) {
      for (Path arquivo : arquivos.sorted().toList()) {
        List<String> erros =
            Files.readAllLines(arquivo).stream()
                .filter(linha -> linha.contains(" ERROR "))
                .toList();
        texto.append("\n  ").append(arquivo.getFileName()).append(": ").append(erros.size());
        erros.subList(Math.max(0, erros.size() - ERROS_POR_SERVICO), erros.size()).stream()
            .map(linha -> "\n    " + linha)
            .forEach(texto::append);
      }
    } catch (IOException | UncheckedIOException e) {
      texto.append(" unreadable: ").append(e);
    }
    return texto.toString();
  }

  SistemaDoTeste iniciar() {
    sistema.iniciar();
    return this;
  }

  URI urlDoReceptor() {
    return sistema.urlDoReceptor();
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
    return somaDaMetrica(aplicador, "aplicador_eventos_total{", "origem=\"varredura\"");
  }

  /**
   * Records Kafka acknowledged to a relay since it started ({@code publicador_linhas_publicadas},
   * every table and path).
   */
  static double publicadas(ServicoEmProcesso relay) throws IOException, InterruptedException {
    return somaDaMetrica(relay, "publicador_linhas_publicadas_total{", "");
  }

  /**
   * The sum of a counter's series whose line contains {@code filtro}, from a service's actuator.
   */
  private static double somaDaMetrica(ServicoEmProcesso servico, String serie, String filtro)
      throws IOException, InterruptedException {
    String metricas =
        HTTP.send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:" + servico.portaDeGestao() + "/actuator/prometheus"))
                    .header("Authorization", autorizacaoDeOps())
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return metricas
        .lines()
        .filter(linha -> linha.startsWith(serie))
        .filter(linha -> linha.contains(filtro))
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
    sistema.close();
  }

  static int portaLivre() {
    return SistemaEmProcessos.portaLivre();
  }

  static KafkaLocal kafkaNaPorta(int porta) {
    return KafkaLocal.builder().porta(porta).autenticacao(true).iniciar();
  }
}
