package pedidos.receptor;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import pedidos.contrato.AssinaturaDeWebhook;

/**
 * Warms the webhook's whole path before the receptor reports ready ({@link
 * ReceptorProperties.Aquecimento}): made-up deliveries sent to this process's own port, signed as
 * the store signs, each carrying {@value #CABECALHO} with a value drawn at start that never leaves
 * this process. A request with that value takes a delivery's path, filters, signature check, JSON
 * reading, the group commit's queue and writers, the inbox statements, the metrics' code and the
 * answer, because the JIT compiles what runs and deoptimizes what a path it never saw needs; only
 * its writes are rolled back ({@link EnsaioDaGravacao}), its meters are not exported and no rate
 * limit counts it. Any other value of the header is ignored: the request is a delivery like any
 * other.
 *
 * <p>Health contributor {@code aquecimento}, also in the readiness group: OUT_OF_SERVICE until the
 * warm-up is over, so neither an orchestrator nor the local launcher sends traffic before. Runs
 * after the web server started (an {@link ApplicationRunner}); a failure is logged and the receptor
 * becomes ready anyway: the warm-up only saves time.
 */
@Component("aquecimento")
final class AquecimentoDoReceptor implements ApplicationRunner, HealthIndicator {

  static final String CABECALHO = "x-pedidos-aquecimento";

  private static final Logger log = LoggerFactory.getLogger(AquecimentoDoReceptor.class);
  private static final int LINHAS = 2;
  private static final int RODADAS = 3;
  private static final Duration INTERVALO_DO_COMPILADOR = Duration.ofMillis(250);

  private final byte[] senha;
  private final ReceptorProperties.Aquecimento aquecimento;
  private final AssinaturaDeWebhook assinatura;
  private final VerificadorDeAssinatura verificador;
  private final Environment ambiente;
  private final Clock relogio;
  private final AtomicInteger feitas = new AtomicInteger();
  private volatile Health saude = Health.outOfService().build();

  AquecimentoDoReceptor(
      ReceptorProperties propriedades,
      VerificadorDeAssinatura verificador,
      Environment ambiente,
      Clock relogio) {
    byte[] aleatorios = new byte[32];
    new SecureRandom().nextBytes(aleatorios);
    this.senha = HexFormat.of().formatHex(aleatorios).getBytes(StandardCharsets.US_ASCII);
    this.aquecimento = propriedades.aquecimento();
    this.assinatura = AssinaturaDeWebhook.dosSegredos(propriedades.segredos());
    this.verificador = verificador;
    this.ambiente = ambiente;
    this.relogio = relogio;
  }

  /** Is this one of the warm-up's own requests? Compared in constant time. */
  boolean reconhece(HttpServletRequest requisicao) {
    String valor = requisicao.getHeader(CABECALHO);
    return valor != null && MessageDigest.isEqual(senha, valor.getBytes(StandardCharsets.US_ASCII));
  }

  @Override
  public Health health() {
    return saude;
  }

  @Override
  public void run(ApplicationArguments argumentos) {
    Integer porta = ambiente.getProperty("local.server.port", Integer.class);
    if (aquecimento.requisicoes() == 0 || porta == null) {
      // Off, or no server listening (a test's mock web environment).
      saude = Health.up().withDetail("requisicoes", 0).build();
      return;
    }
    long inicio = System.nanoTime();
    long prazo = inicio + aquecimento.limite().toNanos();
    baixarOCompilador();
    String host = ambiente.getProperty("server.address", "127.0.0.1");
    URI destino =
        URI.create(
            "http://"
                + (host.contains(":") ? "[" + host + "]" : host)
                + ":"
                + porta
                + EndpointDaLoja.CAMINHO);
    HttpClient cliente =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    String prefixo = "aquecimento-" + UUID.randomUUID() + "-";
    ExecutorService executor = Executors.newFixedThreadPool(LINHAS);
    long compilacaoMs = 0;
    try {
      long esperando = 0;
      int porRodada = (aquecimento.requisicoes() + RODADAS - 1) / RODADAS;
      for (int rodada = 0; rodada < RODADAS && System.nanoTime() < prazo; rodada++) {
        int nestaRodada = Math.min(porRodada, aquecimento.requisicoes() - rodada * porRodada);
        List<Future<?>> linhas = new ArrayList<>();
        for (int linha = 0; linha < LINHAS; linha++) {
          String daLinha = prefixo + rodada + "-" + linha + "-";
          int daLinhaN = (nestaRodada + LINHAS - 1 - linha) / LINHAS;
          linhas.add(executor.submit(() -> enviar(cliente, destino, daLinha, daLinhaN, prazo)));
        }
        for (Future<?> linha : linhas) {
          linha.get();
        }
        long enviadas = System.nanoTime();
        compilacaoMs +=
            esperarOCompilador(Math.min(prazo, enviadas + aquecimento.esperaDoJit().toNanos()));
        esperando += System.nanoTime() - enviadas;
      }
      log.info(
          "Warmed up the webhook's path: {} requests in {} rounds in {} ms, {} ms of it waiting for"
              + " the JIT ({} ms of compiling), nothing stored",
          feitas.get(),
          RODADAS,
          Duration.ofNanos(System.nanoTime() - inicio).toMillis(),
          Duration.ofNanos(esperando).toMillis(),
          compilacaoMs);
    } catch (ExecutionException e) {
      log.warn(
          "The warm-up stopped after {} requests; the receptor starts anyway",
          feitas.get(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      executor.shutdownNow();
      // Again: the JVM adds compiler threads while its queue is long, as it was just now.
      int emSegundoPlano = baixarOCompilador();
      saude =
          Health.up()
              .withDetail("requisicoes", feitas.get())
              .withDetail("compilacaoMs", compilacaoMs)
              .withDetail("c2EmSegundoPlano", emSegundoPlano)
              .withDetail("ms", Duration.ofNanos(System.nanoTime() - inicio).toMillis())
              .build();
    }
  }

  private int baixarOCompilador() {
    return aquecimento.jitEmSegundoPlano() ? CompiladorEmSegundoPlano.baixar() : 0;
  }

  /**
   * Waits, sending nothing more, until the JIT has compiled what the round made hot, so that the
   * next round, and then the first deliveries, run that code instead of queueing behind it: with C2
   * at nice 19 ({@link CompiladorEmSegundoPlano}) the compiler falls behind the requests whenever
   * the machine is busy, as it is while every service starts (docs/ARRANQUE.md). Quiet is two
   * intervals in a row with almost no compiling finished.
   *
   * @return the milliseconds of compiling the JIT reported while waiting
   */
  private long esperarOCompilador(long prazo) throws InterruptedException {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      return 0;
    }
    long antes = jit.getTotalCompilationTime();
    long ultimo = antes;
    int quietos = 0;
    while (quietos < 2 && System.nanoTime() + INTERVALO_DO_COMPILADOR.toNanos() <= prazo) {
      Thread.sleep(INTERVALO_DO_COMPILADOR.toMillis());
      long agora = jit.getTotalCompilationTime();
      quietos = agora - ultimo < INTERVALO_DO_COMPILADOR.toMillis() / 10 ? quietos + 1 : 0;
      ultimo = agora;
    }
    return ultimo - antes;
  }

  private Void enviar(HttpClient cliente, URI destino, String prefixo, int quantas, long prazo)
      throws Exception {
    for (int i = 0; i < quantas && System.nanoTime() < prazo; i++) {
      byte[] corpo = corpo(prefixo + i);
      HttpResponse<Void> resposta =
          cliente.send(requisicao(destino, corpo), HttpResponse.BodyHandlers.discarding());
      if (resposta.statusCode() != 200) {
        throw new IllegalStateException(
            "a warm-up request was answered " + resposta.statusCode() + ", not 200");
      }
      feitas.incrementAndGet();
    }
    return null;
  }

  private HttpRequest requisicao(URI destino, byte[] corpo) {
    HttpRequest.Builder pedido =
        HttpRequest.newBuilder(destino)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .header(CABECALHO, new String(senha, StandardCharsets.US_ASCII))
            .POST(HttpRequest.BodyPublishers.ofByteArray(corpo));
    if (verificador.aceita(EsquemaDeAssinatura.LOJA)) {
      pedido.header(AssinaturaDeWebhook.CABECALHO_DA_LOJA, assinatura.daLoja(corpo));
    } else {
      String id = "msg_" + UUID.randomUUID();
      String instante = Long.toString(relogio.instant().getEpochSecond());
      pedido
          .header(AssinaturaDeWebhook.CABECALHO_ID, id)
          .header(AssinaturaDeWebhook.CABECALHO_INSTANTE, instante)
          .header(
              AssinaturaDeWebhook.CABECALHO_ASSINATURA, assinatura.standard(id, instante, corpo));
    }
    return pedido.build();
  }

  /** A delivery as the store sends one: a new order. */
  private static byte[] corpo(String id) {
    return """
        {"id":"%1$s","type":"order.created","occurred_at":"2026-01-01T00:00:00.000Z",\
        "data":{"id":"%1$s","status":"open","total_cents":1990,\
        "customer_email":"aquecimento@example.invalid"}}"""
        .formatted(id)
        .getBytes(StandardCharsets.UTF_8);
  }
}
