package pedidos.bancada;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.dominio.Status;
import pedidos.simulador.ConexaoHttp;

/**
 * Open-loop load for the end-to-end benchmark, run as its own process by {@link BancadaPontaAPonta}
 * (outside the JVMs under test): unique, signed webhooks sent on a fixed schedule (event {@code i}
 * at {@code start + i / rate}), never waiting for earlier answers, so a slow answer cannot slow the
 * offered load down (no coordinated omission). First a warm-up, then the measured part on the same
 * schedule, without a pause: a pause let the system go idle, and the measured part then began with
 * a step from nothing to the full rate, whose transient (about 20 s at 300 events/s) was charged to
 * the window.
 *
 * <p>Events follow orders through {@code created -> paid -> shipped} in blocks of {@code W} orders:
 * the W orders' {@code created}, then their {@code paid} (an effect for the picking system each),
 * then their {@code shipped}, so one order's events are about {@code W / rate} seconds apart. The
 * driver's history ({@link HistoricoDaBancada}) has the very same shape.
 *
 * <p>For every event it writes one CSV line {@code evento_id,fase,agendado_us,enviado_us,
 * resposta_us,status} (epoch microseconds from this machine's wall clock, the clock PostgreSQL's
 * {@code now()} and commit timestamps use), and prints {@code CARGA} when it starts sending, {@code
 * MEDINDO <us>} when the measured part starts and {@code ENVIO TERMINADO <us>} after its last send;
 * given a signal file, it signs every request, prints {@code PREPARADO} and waits for {@code
 * <signal file>.inicio} before it starts (so the driver can start the services on a machine where
 * this JVM is idle, and the load the instant they are ready), and it exits only once {@code <signal
 * file>.fim} exists too (the driver reads this process's CPU time before that).
 *
 * <pre>
 * CargaConstante URL SECRET RATE WARMUP_S DURATION_S CSV PREFIX [ORDERS_PER_BLOCK [SIGNAL_FILE]]
 * </pre>
 */
public final class CargaConstante {

  /** The lifecycle each order goes through, in the store's words. */
  static final Status[] ETAPAS = {Status.CRIADO, Status.PAGO, Status.ENVIADO};

  private static final int REMETENTES = 64;

  private final URI url;
  private final AssinaturaDeWebhook assinatura;
  private final int pedidosPorBloco;
  private final long baseNanos = System.nanoTime();
  private final long baseMicros = epochMicros(Instant.now());
  private final AtomicInteger erros = new AtomicInteger();

  private CargaConstante(URI url, String segredo, int pedidosPorBloco) throws Exception {
    this.url = url;
    this.pedidosPorBloco = pedidosPorBloco;
    this.assinatura = AssinaturaDeWebhook.doSegredo(segredo);
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 7) {
      System.err.println(
          "usage: CargaConstante URL SECRET RATE WARMUP_S DURATION_S CSV PREFIX"
              + " [ORDERS_PER_BLOCK [SIGNAL_FILE]]");
      System.exit(2);
    }
    URI url = URI.create(args[0]);
    double taxa = Double.parseDouble(args[2]);
    int aquecimento = Integer.parseInt(args[3]);
    int duracao = Integer.parseInt(args[4]);
    Path csv = Path.of(args[5]);
    String prefixo = args[6];
    int porBloco = args.length > 7 ? Integer.parseInt(args[7]) : 100;
    Path sinal = args.length > 8 ? Path.of(args[8]) : null;
    var carga = new CargaConstante(url, args[1], porBloco);
    int exit = carga.executar(taxa, aquecimento, duracao, csv, prefixo, sinal);
    System.exit(exit);
  }

  private int executar(
      double taxa, int aquecimento, int duracao, Path csv, String prefixo, Path sinal)
      throws Exception {
    int nAquecimento = (int) Math.round(taxa * aquecimento);
    int nMedidos = (int) Math.round(taxa * duracao);
    int total = nAquecimento + nMedidos;
    String[] ids = new String[total];
    byte[][] requisicoes = new byte[total][];
    Instant ocorrido = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    for (int i = 0; i < total; i++) {
      boolean medido = i >= nAquecimento;
      int k = medido ? i - nAquecimento : i;
      String p = prefixo + (medido ? "m" : "a");
      ids[i] = p + "_" + k;
      byte[] corpo =
          corpo(ids[i], p, k, pedidosPorBloco, ocorrido.plusMillis(i))
              .getBytes(StandardCharsets.UTF_8);
      requisicoes[i] =
          ConexaoHttp.requisicao(
              url.getHost(), url.getPort(), url.getRawPath(), assinatura.daLoja(corpo), corpo);
    }
    long[] agendado = new long[total];
    long[] enviado = new long[total];
    long[] resposta = new long[total];
    int[] status = new int[total];
    CountDownLatch pendentes = new CountDownLatch(total);
    // Open loop: the schedule hands each event to whichever sender is free; there are far more
    // senders (each with its own keep-alive connection) than requests in flight at this rate, so
    // a slow answer never delays the next send. The latency from the scheduled instant is kept
    // too, and would show it if it did.
    BlockingQueue<Integer> fila = new LinkedBlockingQueue<>();
    var endereco = new InetSocketAddress(url.getHost(), url.getPort());
    for (int r = 0; r < REMETENTES; r++) {
      Thread remetente =
          new Thread(
              () -> {
                try (var conexao = new ConexaoHttp(endereco, Duration.ofSeconds(30))) {
                  for (int i = fila.take(); i >= 0; i = fila.take()) {
                    enviado[i] = System.nanoTime();
                    try {
                      status[i] = conexao.enviar(requisicoes[i]);
                    } catch (IOException | RuntimeException e) {
                      status[i] = -1;
                      erros.incrementAndGet();
                    }
                    resposta[i] = System.nanoTime();
                    pendentes.countDown();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "remetente-" + r);
      remetente.setDaemon(true);
      remetente.start();
    }
    double intervaloNanos = 1e9 / taxa;
    if (sinal != null) {
      System.out.println("PREPARADO");
      System.out.flush();
      esperarPor(Path.of(sinal + ".inicio"));
    }
    System.out.printf(
        "CARGA: %d warm-up + %d measured events at %.0f/s to %s%n",
        nAquecimento, nMedidos, taxa, url);
    long inicio = System.nanoTime() + 200_000_000L;
    for (int i = 0; i < total; i++) {
      long alvo = inicio + (long) (i * intervaloNanos);
      if (i == nAquecimento) {
        System.out.println("MEDINDO " + micros(alvo));
        System.out.flush();
      }
      for (long falta = alvo - System.nanoTime(); falta > 0; falta = alvo - System.nanoTime()) {
        LockSupport.parkNanos(falta);
      }
      agendado[i] = alvo;
      fila.add(i);
    }
    System.out.println("ENVIO TERMINADO " + micros(System.nanoTime()));
    System.out.flush();
    boolean todas = pendentes.await(60, TimeUnit.SECONDS);
    for (int r = 0; r < REMETENTES; r++) {
      fila.add(-1);
    }
    try (BufferedWriter saida = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      for (int i = 0; i < total; i++) {
        saida.write(ids[i]);
        saida.write(i < nAquecimento ? ",aquecimento," : ",medida,");
        saida.write(micros(agendado[i]) + "," + micros(enviado[i]) + ",");
        saida.write(resposta[i] == 0 ? "" : String.valueOf(micros(resposta[i])));
        saida.write("," + status[i] + "\n");
      }
    }
    resumir("warm-up", 0, nAquecimento, agendado, enviado, resposta, status);
    resumir("measured", nAquecimento, total, agendado, enviado, resposta, status);
    if (erros.get() > 0) {
      System.out.println(erros.get() + " requests failed at the connection (status -1)");
    }
    if (sinal != null) {
      // Alive until the driver has read this process's CPU time for the window.
      System.out.flush();
      esperarPor(Path.of(sinal + ".fim"));
    }
    if (!todas) {
      System.out.println("some requests had no answer after 60 s");
      return 1;
    }
    return 0;
  }

  private static void esperarPor(Path sinal) throws InterruptedException {
    long prazo = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    while (!Files.exists(sinal)) {
      if (System.nanoTime() > prazo) {
        throw new IllegalStateException("no " + sinal + " after 10 minutes");
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  /** One webhook of the benchmark's shape; {@code k} is the event's index in its phase. */
  static String corpo(String id, String prefixo, int k, int porBloco, Instant ocorrido) {
    int etapa = (k % (3 * porBloco)) / porBloco;
    int pedido = (k / (3 * porBloco)) * porBloco + k % porBloco;
    return "{\"id\":\""
        + id
        + "\",\"type\":\""
        + ETAPAS[etapa].tipoDoEvento()
        + "\",\"occurred_at\":\""
        + ocorrido
        + "\",\"sequence\":"
        + (etapa + 1)
        + ",\"data\":{\"id\":\"ord_"
        + prefixo
        + "_"
        + pedido
        + "\",\"status\":\""
        + ETAPAS[etapa].statusDaApi()
        + "\",\"total_cents\":1990,\"customer_email\":\"cliente@example.com\"}}";
  }

  private void resumir(
      String fase,
      int de,
      int ate,
      long[] agendado,
      long[] enviado,
      long[] resposta,
      int[] status) {
    int ok = 0;
    int outros = 0;
    long[] doEnvio = new long[ate - de];
    long[] doAgendado = new long[ate - de];
    long atrasoMaximo = 0;
    int n = 0;
    for (int i = de; i < ate; i++) {
      atrasoMaximo = Math.max(atrasoMaximo, enviado[i] - agendado[i]);
      if (status[i] == 200) {
        ok++;
        doEnvio[n] = resposta[i] - enviado[i];
        doAgendado[n] = resposta[i] - agendado[i];
        n++;
      } else {
        outros++;
      }
    }
    doEnvio = Arrays.copyOf(doEnvio, n);
    doAgendado = Arrays.copyOf(doAgendado, n);
    Arrays.sort(doEnvio);
    Arrays.sort(doAgendado);
    System.out.printf(
        "%s: %d sent, %d answered 200, %d other/failed; 200 after send p50 %.2f ms p99 %.2f ms max"
            + " %.2f ms; after schedule p50 %.2f p99 %.2f max %.2f ms; sends late by up to %.2f ms%n",
        fase,
        ate - de,
        ok,
        outros,
        ms(percentil(doEnvio, 0.50)),
        ms(percentil(doEnvio, 0.99)),
        ms(n == 0 ? 0 : doEnvio[n - 1]),
        ms(percentil(doAgendado, 0.50)),
        ms(percentil(doAgendado, 0.99)),
        ms(n == 0 ? 0 : doAgendado[n - 1]),
        ms(atrasoMaximo));
  }

  private static long percentil(long[] ordenados, double p) {
    if (ordenados.length == 0) {
      return 0;
    }
    int i = (int) Math.ceil(p * ordenados.length) - 1;
    return ordenados[Math.max(0, Math.min(ordenados.length - 1, i))];
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  private long micros(long nanos) {
    return baseMicros + (nanos - baseNanos) / 1000;
  }

  private static long epochMicros(Instant instante) {
    return instante.getEpochSecond() * 1_000_000L + instante.getNano() / 1000;
  }
}
