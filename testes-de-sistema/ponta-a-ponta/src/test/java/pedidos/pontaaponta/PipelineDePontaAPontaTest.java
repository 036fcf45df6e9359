package pedidos.pontaaponta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import pedidos.infra.PostgresLocal;
import pedidos.infra.ProxyCongelavel;
import pedidos.infra.ServicoEmProcesso;
import pedidos.infra.UsuarioDoKafka;
import pedidos.pontaaponta.CorposExtremos.CorpoExtremo;
import pedidos.simulador.Relatorio;
import pedidos.simulador.Simulacao;
import pedidos.testes.Consultas;

/**
 * Signed webhooks through the receptor, the relay, Kafka and the applier, as separate processes,
 * checked by the provider simulator; then the same with a relay, the applier and Kafka failing in
 * the middle of the stream; odd but valid JSON at every edge of the input envelope, each body
 * followed by a plain event that must still go through Kafka in seconds; last, network partitions
 * between every service and PostgreSQL (the services reach it through a {@link ProxyCongelavel}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(2)
class PipelineDePontaAPontaTest {

  private static final Duration ESPERA = Duration.ofMinutes(3);

  /** How long a stored event may take to be applied, through the relay, Kafka and the applier. */
  private static final Duration PRAZO_POR_EVENTO = Duration.ofSeconds(10);

  /**
   * The load the kill scenarios run under: 200 orders at 80 events/s in CI; at the pipeline's knee
   * by hand, e.g. {@code -Dpedidos.mortes.pedidos=18000 -Dpedidos.mortes.taxa=1700
   * -Dpedidos.mortes.espera=PT10M} (docs/BENCHMARKS.md, issue 27), the wait for every order to
   * converge longer since reconciliation then has thousands of lost webhooks to find. The service
   * is killed early in the run, once the events stored number three quarters of the orders (150 in
   * CI).
   */
  private static final int PEDIDOS_DAS_MORTES = Integer.getInteger("pedidos.mortes.pedidos", 200);

  private static final double TAXA_DAS_MORTES =
      Double.parseDouble(System.getProperty("pedidos.mortes.taxa", "80"));

  private static final Duration ESPERA_DAS_MORTES =
      Duration.parse(System.getProperty("pedidos.mortes.espera", ESPERA.toString()));

  /**
   * Connections the simulated store sends from, each waiting for its answer: as many as the
   * benchmark's generator, so that the kill scenarios reach the knee's rate when asked to.
   */
  private static final int CONEXOES_DA_LOJA = 64;

  private static final int CORPOS_EXTREMOS = 40;
  private static final long SEMENTE_DOS_EXTREMOS = 20261201L;
  private static final Pattern MOTIVO = Pattern.compile("\"motivo\"\\s*:\\s*\"([^\"]*)\"");

  private SistemaCompartilhado compartilhado;
  private PostgresLocal postgres;
  // Every service reaches PostgreSQL through it; only the partition scenarios make it fail.
  private ProxyCongelavel proxy;
  private SistemaDoTeste sistema;

  @BeforeAll
  void iniciar() {
    compartilhado = SistemaCompartilhado.obter();
    postgres = compartilhado.postgres;
    proxy = compartilhado.proxy;
    sistema = compartilhado.sistema();
  }

  @Test
  @Order(1)
  @Tag("todas-as-versoes-do-postgres")
  void centenasDePedidosEmbaralhadosEDuplicadosChegamAoEstadoCanonico() throws Exception {
    try (Simulacao simulacao = simulacao("todos", 1, 300, 300)) {
      simulacao.iniciarApi();
      Relatorio relatorio = simulacao.executar();
      aprovar(relatorio);
    }
  }

  @Test
  @Order(2)
  void relayMortoNoMeioDoFluxoNaoPerdeNadaEAReservaAssume() throws Exception {
    ServicoEmProcesso ativo =
        SistemaDoTeste.papel(sistema.relay).orElse("").equals("ATIVO")
            ? sistema.relay
            : sistema.reserva;
    ServicoEmProcesso outro = ativo == sistema.relay ? sistema.reserva : sistema.relay;
    try (Simulacao simulacao =
        simulacao("relay", 2, PEDIDOS_DAS_MORTES, TAXA_DAS_MORTES, ESPERA_DAS_MORTES)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados("relay") > PEDIDOS_DAS_MORTES * 3 / 4);

      ativo.matar();

      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> SistemaDoTeste.papel(outro).orElse("").equals("ATIVO"));
      ativo.iniciar().aguardarSaude(ESPERA);
      assertThat(SistemaDoTeste.papel(ativo)).contains("RESERVA");
      Relatorio relatorio = execucao.get();
      aprovar(relatorio);
    }
  }

  @Test
  @Order(3)
  void aplicadorMortoNoMeioDoFluxoNaoPerdeNada() throws Exception {
    try (Simulacao simulacao =
        simulacao("aplicador", 3, PEDIDOS_DAS_MORTES, TAXA_DAS_MORTES, ESPERA_DAS_MORTES)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await()
          .atMost(ESPERA)
          .until(() -> eventosGuardados("aplicador") > PEDIDOS_DAS_MORTES * 3 / 4);

      sistema.aplicador.matar();
      sistema.aplicador.iniciar().aguardarSaude(ESPERA);

      Relatorio relatorio = execucao.get();
      aprovar(relatorio);
    }
  }

  @Test
  @Order(5)
  void kafkaForaDoArAVarreduraAplicaEDepoisTudoEPublicado() throws Exception {
    compartilhado.pararKafka();
    try (Simulacao simulacao = simulacao("semkafka", 4, 100, 100)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados("semkafka") > 100);
      await()
          .atMost(ESPERA)
          .alias("the sweep applies from the inbox while Kafka is down")
          .until(() -> pedidosAplicados("semkafka") > 50);

      compartilhado.iniciarKafka();

      Relatorio relatorio = execucao.get();
      aprovar(relatorio);
    }
  }

  /**
   * Odd but valid JSON through the whole pipeline, each body followed by a plain event of a new
   * order: the receptor answers each extreme body 200 or a 4xx, never 5xx; the applier settles
   * every one it stored within {@link #PRAZO_POR_EVENTO}; and every plain event is applied within
   * {@link #PRAZO_POR_EVENTO} of its 200, through Kafka: the sweep applies none of them (were the
   * relay or the listener stuck on an extreme record, the sweep would be what applied it, after
   * {@code APLICADOR_VARREDURA_IDADE}). After the relay and applier scenarios, before Kafka's: the
   * embedded broker creates topics on a client's first request, so once it has been restarted empty
   * its topics may have the broker's 1 MiB default until the relay's next restart raises them
   * (MortosTest shows that healing; a deployed broker does not auto-create topics), which would
   * race this test against the sweep. It fails with one line per body (its shape, the answer, the
   * stored jsonb text's size, how it was settled and, if the relay dead-lettered it, why) so the
   * cause shows.
   */
  @Test
  @Order(4)
  void corposExtremosNaoAtrasamOsEventosComunsQueOsSeguem() throws Exception {
    await()
        .atMost(ESPERA)
        .alias("the earlier scenarios left no event pending, which the sweep would apply")
        .until(() -> contar("SELECT count(*) FROM webhook_eventos WHERE aplicado_em IS NULL") == 0);
    aguardarCaminhoDoKafka();
    List<CorpoExtremo> corpos = CorposExtremos.sortear(CORPOS_EXTREMOS, SEMENTE_DOS_EXTREMOS);
    List<String> linhas = new ArrayList<>();
    boolean falhou = false;
    double varridosNoInicio = sistema.aplicadosPelaVarredura();
    int enviados = 0;
    while (enviados < corpos.size()) {
      Passo passo = extremoSeguidoDeComum(corpos.get(enviados++));
      linhas.add((passo.ok() ? "   " : "!! ") + passo.relato());
      falhou |= !passo.ok();
      if (passo.caminhoParado()) {
        break;
      }
    }
    if (enviados < corpos.size()) {
      // Past a stall nothing more is attributable to a body; the receptor's answers to the rest
      // still show which of them it would have let into the pipeline.
      linhas.add(
          "!! the Kafka path stalled: the plain event above was not applied in time, or the sweep"
              + " applied it (the services' logs are in target/logs). The bodies left, sent to"
              + " the receptor alone:");
      for (CorpoExtremo extremo : corpos.subList(enviados, corpos.size())) {
        linhas.add("   " + extremo + "\n      -> " + respostaDoReceptor(extremo).relato());
      }
    }
    String relato = String.join("\n", linhas);
    System.out.println(relato);
    assertThat(falhou)
        .as(
            "extreme bodies (seed %d, %d bodies), each followed by a plain event:%n%s",
            SEMENTE_DOS_EXTREMOS, CORPOS_EXTREMOS, relato)
        .isFalse();
    assertThat(sistema.aplicadosPelaVarredura())
        .as("events applied by the sweep during the test")
        .isEqualTo(varridosNoInicio);
  }

  /**
   * A network partition between every service and PostgreSQL, healed after 30 s: under load, the
   * connections open at that moment freeze in both directions (the server keeps a healthy socket to
   * each, so their backends live on, with an applier's transaction and its order locks among them),
   * while new connections work. Every order converges and every effect is published without a
   * service being restarted; the frozen backends that held a lock, a transaction or the slot are
   * ended by the server; the two relays never publish at once.
   */
  @Test
  @Order(6)
  void particaoQueSaraEm30sNaoDeixaPedidoParadoNemDoisRelaysPublicando() throws Exception {
    particao("particao", 6, Duration.ofSeconds(30));
  }

  /** The same partition, never healed: the frozen sockets stay open until the test ends. */
  @Test
  @Order(7)
  void particaoQueNuncaSaraNaoDeixaPedidoParadoNemDoisRelaysPublicando() throws Exception {
    particao("semcura", 7, null);
  }

  private void particao(String prefixo, long semente, Duration cura) throws Exception {
    await()
        .atMost(ESPERA)
        .alias("both relays up after the earlier scenarios")
        .until(
            () ->
                SistemaDoTeste.papel(sistema.relay).isPresent()
                    && SistemaDoTeste.papel(sistema.reserva).isPresent());
    try (Simulacao simulacao = simulacao(prefixo, semente, 400, 200);
        PublicacoesDosRelays publicacoes = new PublicacoesDosRelays(sistema)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados(prefixo) > 150);

      // Frozen at a moment an applier's transaction holds an order's lock: healed at once and
      // tried again otherwise, until one is caught.
      AtomicReference<Set<Integer>> congeladas = new AtomicReference<>();
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(20))
          .until(
              () -> {
                congeladas.set(proxy.congelar());
                if (contarZumbis(congeladas.get(), APLICADOR_COM_LOCK) > 0) {
                  return true;
                }
                proxy.descongelar();
                return false;
              });
      long inicio = System.nanoTime();
      System.out.printf(
          "partition: %d connections frozen, %d of them the applier's in a transaction holding an"
              + " order's lock%n",
          congeladas.get().size(), contarZumbis(congeladas.get(), APLICADOR_COM_LOCK));

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(zumbisQuePrendem(congeladas.get()))
                      .as(
                          "frozen backends still holding a lock, a transaction or the slot, which"
                              + " the server should have ended")
                      .isEmpty());
      if (cura != null) {
        await()
            .atMost(cura.plusSeconds(5))
            .until(() -> Duration.ofNanos(System.nanoTime() - inicio).compareTo(cura) >= 0);
        proxy.descongelar();
      }

      Relatorio relatorio = execucao.get();
      aprovar(relatorio);
      publicacoes.nuncaDoisAoMesmoTempo();
      assertThat(
              List.of(
                  SistemaDoTeste.papel(sistema.relay).orElse(""),
                  SistemaDoTeste.papel(sistema.reserva).orElse("")))
          .as("one active relay, one standby, neither restarted")
          .containsExactlyInAnyOrder("ATIVO", "RESERVA");
    } finally {
      proxy.descongelar();
    }
  }

  private static final String APLICADOR_COM_LOCK =
      """
      SELECT count(*) FROM pg_stat_activity a
       WHERE a.client_port = ANY (?) AND a.usename = 'pedidos_aplicador' AND a.xact_start IS NOT NULL
         AND EXISTS (
               SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted)
      """;

  private static final String ZUMBIS_QUE_PRENDEM =
      """
      SELECT a.pid || ' ' || a.usename || ' ' || a.application_name || ' ' || a.backend_type
             || ' ' || a.state || ' ' || coalesce(a.wait_event, '-') || ' since '
             || coalesce(a.state_change::text, '?') || ': ' || left(a.query, 80)
        FROM pg_stat_activity a
       WHERE a.client_port = ANY (?)
         AND (a.xact_start IS NOT NULL
              OR EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory')
              OR EXISTS (SELECT 1 FROM pg_replication_slots s WHERE s.active_pid = a.pid))
      """;

  private List<String> zumbisQuePrendem(Set<Integer> portas) throws SQLException {
    try (Connection conexao = conectar();
        PreparedStatement consulta = conexao.prepareStatement(ZUMBIS_QUE_PRENDEM)) {
      consulta.setArray(1, conexao.createArrayOf("int4", portas.toArray()));
      List<String> zumbis = new ArrayList<>();
      try (ResultSet linhas = consulta.executeQuery()) {
        while (linhas.next()) {
          zumbis.add(linhas.getString(1));
        }
      }
      return zumbis;
    }
  }

  private long contarZumbis(Set<Integer> portas, String sql) throws SQLException {
    try (Connection conexao = conectar();
        PreparedStatement consulta = conexao.prepareStatement(sql)) {
      consulta.setArray(1, conexao.createArrayOf("int4", portas.toArray()));
      try (ResultSet linhas = consulta.executeQuery()) {
        linhas.next();
        return linhas.getLong(1);
      }
    }
  }

  /**
   * Each relay's count of records Kafka acknowledged, read every 100 ms from its actuator: in no
   * interval between two readings may both counts rise.
   */
  private static final class PublicacoesDosRelays implements AutoCloseable {

    private final List<double[]> leituras = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService agenda = Executors.newSingleThreadScheduledExecutor();

    PublicacoesDosRelays(SistemaDoTeste sistema) {
      agenda.scheduleWithFixedDelay(
          () -> {
            try {
              leituras.add(
                  new double[] {
                    SistemaDoTeste.publicadas(sistema.relay),
                    SistemaDoTeste.publicadas(sistema.reserva)
                  });
            } catch (IOException e) {
              // A relay that does not answer in time publishes nothing this reading can see.
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          },
          0,
          100,
          TimeUnit.MILLISECONDS);
    }

    void nuncaDoisAoMesmoTempo() throws InterruptedException {
      agenda.shutdown();
      assertThat(agenda.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      assertThat(leituras).hasSizeGreaterThan(100);
      for (int i = 1; i < leituras.size(); i++) {
        double[] antes = leituras.get(i - 1);
        double[] depois = leituras.get(i);
        assertThat(depois[0] > antes[0] && depois[1] > antes[1])
            .as(
                "both relays published between readings %d and %d: %s -> %s",
                i - 1, i, Arrays.toString(antes), Arrays.toString(depois))
            .isFalse();
      }
    }

    @Override
    public void close() {
      agenda.shutdownNow();
    }
  }

  /**
   * Plain events, one at a time, until one is applied through Kafka within {@link
   * #PRAZO_POR_EVENTO}: after Kafka was restarted the relay may still be resuming its stream (its
   * producer first expires what it held, then its engine restarts), and until it does, the sweep
   * applies everything.
   */
  private void aguardarCaminhoDoKafka() throws IOException, InterruptedException, SQLException {
    long inicio = System.nanoTime();
    Instant prazo = Instant.now().plus(ESPERA);
    int sondas = 0;
    while (!comumPeloKafka("sonda_" + ++sondas)) {
      assertThat(Instant.now())
          .as("no plain event went through Kafka in time after %d tries", sondas)
          .isBefore(prazo);
    }
    System.out.printf(
        "the Kafka path applied a plain event in time at try %d, %d ms after the first%n",
        sondas, Duration.ofNanos(System.nanoTime() - inicio).toMillis());
  }

  /** A plain event of a new order is applied within the deadline, and not by the sweep. */
  private boolean comumPeloKafka(String sufixo)
      throws IOException, InterruptedException, SQLException {
    double varridos = sistema.aplicadosPelaVarredura();
    HttpResponse<String> resposta =
        sistema.entregar(
            eventoComum("evt_" + sufixo, "ord_" + sufixo).getBytes(StandardCharsets.UTF_8));
    assertThat(resposta.statusCode()).as(resposta.body()).isEqualTo(200);
    return aguardarPedidoCriado("ord_" + sufixo).isPresent()
        && sistema.aplicadosPelaVarredura() == varridos;
  }

  /**
   * One extreme body and a plain event after it.
   *
   * @param relato what happened, for the failure message
   * @param ok every expectation held
   * @param caminhoParado the plain event was not applied through Kafka in time: later steps would
   *     wait on the same stall and say nothing about their own bodies
   */
  private record Passo(String relato, boolean ok, boolean caminhoParado) {}

  private Passo extremoSeguidoDeComum(CorpoExtremo extremo)
      throws IOException, InterruptedException, SQLException {
    StringBuilder relato = new StringBuilder(extremo.toString()).append("\n      -> ");
    double varridos = sistema.aplicadosPelaVarredura();
    Resposta resposta = respostaDoReceptor(extremo);
    relato.append(resposta.relato());
    boolean ok = resposta.ok();
    if (resposta.status() == 200) {
      Optional<Assentamento> assentado = aguardarAssentamento(extremo.eventoId());
      ok &= assentado.isPresent();
      relato.append(
          assentado
              .map(a -> ", settled as " + a)
              .orElse(", NOT SETTLED within " + PRAZO_POR_EVENTO));
    }
    double depoisDoExtremo = sistema.aplicadosPelaVarredura();
    if (depoisDoExtremo > varridos) {
      ok = false;
      relato.append(", BY THE SWEEP").append(mortoNoRelay(extremo.eventoId()));
    }

    String pedido = "ord_comum_" + extremo.indice();
    HttpResponse<String> comum =
        sistema.entregar(
            eventoComum("evt_comum_" + extremo.indice(), pedido).getBytes(StandardCharsets.UTF_8));
    relato.append("\n      -> plain event after it: ");
    if (comum.statusCode() != 200) {
      relato.append("UNEXPECTED ").append(comum.statusCode()).append(": ").append(comum.body());
      return new Passo(relato.toString(), false, false);
    }
    Optional<Duration> aplicado = aguardarPedidoCriado(pedido);
    relato.append(
        aplicado
            .map(d -> "applied " + d.toMillis() + " ms after its 200")
            .orElse("NOT APPLIED within " + PRAZO_POR_EVENTO + " of its 200"));
    boolean pelaVarredura = sistema.aplicadosPelaVarredura() > depoisDoExtremo;
    if (pelaVarredura) {
      relato.append(", BY THE SWEEP").append(mortoNoRelay("evt_comum_" + extremo.indice()));
    }
    boolean parado = aplicado.isEmpty() || pelaVarredura;
    return new Passo(relato.toString(), ok && !parado, parado);
  }

  /** The receptor's answer to one extreme body, and what it stored of it. */
  private record Resposta(int status, String relato, boolean ok) {}

  private Resposta respostaDoReceptor(CorpoExtremo extremo)
      throws IOException, InterruptedException, SQLException {
    HttpResponse<String> resposta = sistema.entregar(extremo.bytes());
    int status = resposta.statusCode();
    long guardado = tamanhoNoJsonb(extremo.eventoId());
    if (status == 200) {
      return new Resposta(status, "200, jsonb text " + guardado + " bytes", guardado >= 0);
    }
    if (status >= 400 && status < 500) {
      String motivo = motivo(resposta.body());
      return guardado < 0
          ? new Resposta(status, status + " motivo=" + motivo, true)
          : new Resposta(status, status + " motivo=" + motivo + " BUT STORED", false);
    }
    return new Resposta(status, "UNEXPECTED " + status + ": " + resposta.body(), false);
  }

  /** How the applier settled a stored event: its result and how long after it was stored. */
  private record Assentamento(String resultado, Duration depoisDeRecebido) {
    @Override
    public String toString() {
      return resultado + " " + depoisDeRecebido.toMillis() + " ms after it was stored";
    }
  }

  private Optional<Assentamento> aguardarAssentamento(String eventoId) {
    AtomicReference<Assentamento> assentado = new AtomicReference<>();
    try {
      await()
          .atMost(PRAZO_POR_EVENTO)
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> {
                assentado.set(assentamento(eventoId));
                return assentado.get() != null;
              });
      return Optional.of(assentado.get());
    } catch (ConditionTimeoutException e) {
      return Optional.empty();
    }
  }

  /** How long after the plain event's 200 its order was created; empty if not in time. */
  private Optional<Duration> aguardarPedidoCriado(String pedidoId) {
    long inicio = System.nanoTime();
    try {
      await()
          .atMost(PRAZO_POR_EVENTO)
          .pollInterval(Duration.ofMillis(50))
          .until(
              () ->
                  contar(
                          """
                          SELECT count(*) FROM pedidos p JOIN webhook_eventos e ON e.recurso_id = p.id
                           WHERE p.id = ? AND p.status = 'criado' AND e.aplicado_em IS NOT NULL
                          """,
                          pedidoId)
                      == 1);
      return Optional.of(Duration.ofNanos(System.nanoTime() - inicio));
    } catch (ConditionTimeoutException e) {
      return Optional.empty();
    }
  }

  private Assentamento assentamento(String eventoId) throws SQLException {
    try (Connection conexao = conectar();
        PreparedStatement consulta =
            conexao.prepareStatement(
                """
                SELECT resultado, extract(epoch FROM aplicado_em - recebido_em) * 1000 AS ms
                  FROM webhook_eventos WHERE evento_id = ? AND aplicado_em IS NOT NULL
                """)) {
      consulta.setString(1, eventoId);
      try (ResultSet linhas = consulta.executeQuery()) {
        return linhas.next()
            ? new Assentamento(linhas.getString(1), Duration.ofMillis(linhas.getLong(2)))
            : null;
      }
    }
  }

  /** Why the relay dead-lettered the event's inbox row, if it did; else nothing. */
  private String mortoNoRelay(String eventoId) throws SQLException {
    try (Connection conexao = conectar();
        PreparedStatement consulta =
            conexao.prepareStatement(
                """
                SELECT string_agg(motivo, ' | ') FROM publicador_mortos
                 WHERE tabela = 'webhook_eventos' AND chave = jsonb_build_object('evento_id', ?::text)
                """)) {
      consulta.setString(1, eventoId);
      try (ResultSet linhas = consulta.executeQuery()) {
        linhas.next();
        String motivo = linhas.getString(1);
        return motivo == null ? "" : " (the relay dead-lettered it: " + motivo + ")";
      }
    }
  }

  private long tamanhoNoJsonb(String eventoId) throws SQLException {
    return contar(
        "SELECT coalesce(sum(octet_length(payload::text)), -1) FROM webhook_eventos"
            + " WHERE evento_id = ?",
        eventoId);
  }

  /** A plain event of a new order, as the store sends it. */
  private static String eventoComum(String eventoId, String pedidoId) {
    return """
        {"id":"%s","type":"order.created","occurred_at":"2026-12-01T12:00:00.000Z",\
        "data":{"id":"%s","status":"open","total_cents":1990,\
        "customer_email":"cliente@example.com"}}"""
        .formatted(eventoId, pedidoId);
  }

  private static String motivo(String problema) {
    Matcher motivo = MOTIVO.matcher(problema);
    return motivo.find() ? motivo.group(1) : "(none in " + problema + ")";
  }

  private static void aprovar(Relatorio relatorio) {
    System.out.println(relatorio.texto());
    assertThat(relatorio.ok())
        .as(() -> relatorio.texto() + SistemaDoTeste.errosRecentes())
        .isTrue();
    assertThat(relatorio.pedidos()).isPositive();
    assertThat(relatorio.divergencias()).isEmpty();
  }

  private Simulacao simulacao(String prefixo, long semente, int pedidos, double taxa) {
    return simulacao(prefixo, semente, pedidos, taxa, ESPERA);
  }

  private Simulacao simulacao(
      String prefixo, long semente, int pedidos, double taxa, Duration espera) {
    return Simulacao.builder()
        .receptor(sistema.urlDoReceptor())
        .segredo(SistemaDoTeste.SEGREDO)
        .banco(postgres.jdbcUrl(), postgres.usuario(), postgres.senha())
        .kafka(
            "localhost:" + compartilhado.portaDoKafka,
            UsuarioDoKafka.ADMINISTRADOR.propriedadesDoCliente())
        .portaDaApi(compartilhado.portaDaApi)
        .tokenDaApi(SistemaCompartilhado.TOKEN_DA_API)
        .prefixo(prefixo)
        .semente(semente)
        .pedidos(pedidos)
        .taxa(taxa)
        .concorrencia(CONEXOES_DA_LOJA)
        .perda(0.05)
        .duplicacao(0.3)
        .espera(espera)
        .construir();
  }

  private static CompletableFuture<Relatorio> emSegundoPlano(Simulacao simulacao) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return simulacao.executar();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        });
  }

  private long eventosGuardados(String prefixo) throws SQLException {
    return contar(
        "SELECT count(*) FROM webhook_eventos WHERE recurso_id LIKE ?", "ord_" + prefixo + "_%");
  }

  private long pedidosAplicados(String prefixo) throws SQLException {
    return contar("SELECT count(*) FROM pedidos WHERE id LIKE ?", "ord_" + prefixo + "_%");
  }

  /** As the superuser, outside the services' privileges. */
  private long contar(String sql, Object... parametros) {
    return Consultas.de(postgres.dataSource()).contar(sql, parametros);
  }

  private Connection conectar() throws SQLException {
    return DriverManager.getConnection(postgres.jdbcUrl(), postgres.usuario(), postgres.senha());
  }
}
