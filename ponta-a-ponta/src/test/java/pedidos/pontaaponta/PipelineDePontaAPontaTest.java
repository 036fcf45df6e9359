package pedidos.pontaaponta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import pedidos.infra.KafkaLocal;
import pedidos.infra.PostgresLocal;
import pedidos.infra.ServicoEmProcesso;
import pedidos.pontaaponta.CorposExtremos.CorpoExtremo;
import pedidos.simulador.Relatorio;
import pedidos.simulador.Simulacao;

/**
 * Signed webhooks through the receptor, the relay, Kafka and the applier, as separate processes,
 * checked by the provider simulator; then the same with a relay, the applier and Kafka failing in
 * the middle of the stream; last, odd but valid JSON at every edge of the input envelope, each body
 * followed by a plain event that must still go through Kafka in seconds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PipelineDePontaAPontaTest {

  private static final String TOKEN = "token-ponta-a-ponta";
  private static final Duration ESPERA = Duration.ofMinutes(3);

  /** How long a stored event may take to be applied, through the relay, Kafka and the applier. */
  private static final Duration PRAZO_POR_EVENTO = Duration.ofSeconds(10);

  private static final int CORPOS_EXTREMOS = 40;
  private static final long SEMENTE_DOS_EXTREMOS = 20261201L;
  private static final Pattern MOTIVO = Pattern.compile("\"motivo\"\\s*:\\s*\"([^\"]*)\"");

  private final int portaDaApi = SistemaEmProcessos.portaLivre();
  private final int portaDoKafka = SistemaEmProcessos.portaLivre();
  private PostgresLocal postgres;
  private KafkaLocal kafka;
  private SistemaEmProcessos sistema;

  @BeforeAll
  void iniciar() {
    postgres = PostgresLocal.builder().fsync(false).iniciar();
    kafka = SistemaEmProcessos.kafkaNaPorta(portaDoKafka);
    sistema =
        new SistemaEmProcessos(
                postgres,
                kafka.bootstrapServers(),
                URI.create("http://127.0.0.1:" + portaDaApi),
                TOKEN)
            .iniciar();
  }

  @AfterAll
  void parar() {
    if (sistema != null) {
      sistema.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    if (postgres != null) {
      postgres.close();
    }
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
        SistemaEmProcessos.papel(sistema.relay).orElse("").equals("ATIVO")
            ? sistema.relay
            : sistema.reserva;
    ServicoEmProcesso outro = ativo == sistema.relay ? sistema.reserva : sistema.relay;
    try (Simulacao simulacao = simulacao("relay", 2, 200, 80)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados("relay") > 150);

      ativo.matar();

      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> SistemaEmProcessos.papel(outro).orElse("").equals("ATIVO"));
      ativo.iniciar().aguardarSaude(ESPERA);
      assertThat(SistemaEmProcessos.papel(ativo)).contains("RESERVA");
      Relatorio relatorio = execucao.get();
      aprovar(relatorio);
    }
  }

  @Test
  @Order(3)
  void aplicadorMortoNoMeioDoFluxoNaoPerdeNada() throws Exception {
    try (Simulacao simulacao = simulacao("aplicador", 3, 200, 80)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados("aplicador") > 150);

      sistema.aplicador.matar();
      sistema.aplicador.iniciar().aguardarSaude(ESPERA);

      Relatorio relatorio = execucao.get();
      aprovar(relatorio);
    }
  }

  @Test
  @Order(4)
  void kafkaForaDoArAVarreduraAplicaEDepoisTudoEPublicado() throws Exception {
    kafka.close();
    try (Simulacao simulacao = simulacao("semkafka", 4, 100, 100)) {
      simulacao.iniciarApi();
      CompletableFuture<Relatorio> execucao = emSegundoPlano(simulacao);
      await().atMost(ESPERA).until(() -> eventosGuardados("semkafka") > 100);
      await()
          .atMost(ESPERA)
          .alias("the sweep applies from the inbox while Kafka is down")
          .until(() -> pedidosAplicados("semkafka") > 50);

      kafka = SistemaEmProcessos.kafkaNaPorta(portaDoKafka);

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
   * {@code APLICADOR_VARREDURA_IDADE}). Last, so that a relay stuck on a record cannot spoil the
   * other scenarios; it fails with one line per body (its shape, the answer, the stored jsonb
   * text's size, how it was settled) so the cause shows.
   */
  @Test
  @Order(5)
  void corposExtremosNaoAtrasamOsEventosComunsQueOsSeguem() throws Exception {
    await()
        .atMost(ESPERA)
        .alias("the earlier scenarios left no event pending, which the sweep would apply")
        .until(() -> contar("SELECT count(*) FROM webhook_eventos WHERE aplicado_em IS NULL") == 0);
    List<CorpoExtremo> corpos = CorposExtremos.sortear(CORPOS_EXTREMOS, SEMENTE_DOS_EXTREMOS);
    List<String> linhas = new ArrayList<>();
    boolean falhou = false;
    double varridos = sistema.aplicadosPelaVarredura();
    double varridosNoInicio = varridos;
    for (CorpoExtremo extremo : corpos) {
      StringBuilder linha = new StringBuilder(extremo.toString()).append("\n      -> ");
      boolean ok = true;
      HttpResponse<String> resposta = sistema.entregar(extremo.bytes());
      int status = resposta.statusCode();
      if (status == 200) {
        linha.append("200");
        Optional<Assentamento> assentado = aguardarAssentamento(extremo.eventoId());
        linha.append(", jsonb text ").append(tamanhoNoJsonb(extremo.eventoId())).append(" bytes");
        if (assentado.isPresent()) {
          linha.append(", settled as ").append(assentado.get());
        } else {
          ok = false;
          linha.append(", NOT SETTLED within ").append(PRAZO_POR_EVENTO);
        }
      } else if (status >= 400 && status < 500) {
        linha.append(status).append(" motivo=").append(motivo(resposta.body()));
      } else {
        ok = false;
        linha.append("UNEXPECTED ").append(status).append(": ").append(resposta.body());
      }
      String pedidoComum = "ord_comum_" + extremo.indice();
      HttpResponse<String> comum =
          sistema.entregar(
              eventoComum("evt_comum_" + extremo.indice(), pedidoComum)
                  .getBytes(StandardCharsets.UTF_8));
      boolean comumAplicado = false;
      if (comum.statusCode() == 200) {
        Optional<Duration> aplicado = aguardarPedidoCriado(pedidoComum);
        comumAplicado = aplicado.isPresent();
        linha
            .append("; plain event after it: ")
            .append(
                aplicado
                    .map(d -> "applied " + d.toMillis() + " ms after its 200")
                    .orElse("NOT APPLIED within " + PRAZO_POR_EVENTO + " of its 200"));
      } else {
        linha
            .append("; plain event after it: UNEXPECTED ")
            .append(comum.statusCode())
            .append(": ")
            .append(comum.body());
      }
      ok &= comumAplicado;
      double agora = sistema.aplicadosPelaVarredura();
      if (agora > varridos) {
        ok = false;
        linha.append("; THE SWEEP APPLIED ").append((long) (agora - varridos)).append(" event(s)");
      }
      varridos = agora;
      linhas.add((ok ? "   " : "!! ") + linha);
      falhou |= !ok;
      if (!comumAplicado) {
        linhas.add(
            "!! the Kafka path stalled (a plain event was not applied in time): the "
                + (corpos.size() - 1 - extremo.indice())
                + " bodies left were not sent");
        break;
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
    assertThat(relatorio.ok()).as(relatorio.texto()).isTrue();
    assertThat(relatorio.pedidos()).isPositive();
    assertThat(relatorio.divergencias()).isEmpty();
  }

  private Simulacao simulacao(String prefixo, long semente, int pedidos, double taxa) {
    return Simulacao.builder()
        .receptor(sistema.urlDoReceptor())
        .segredo(SistemaEmProcessos.SEGREDO)
        .banco(postgres.jdbcUrl(), postgres.usuario(), postgres.senha())
        .kafka("localhost:" + portaDoKafka)
        .portaDaApi(portaDaApi)
        .tokenDaApi(TOKEN)
        .prefixo(prefixo)
        .semente(semente)
        .pedidos(pedidos)
        .taxa(taxa)
        .perda(0.05)
        .duplicacao(0.3)
        .espera(ESPERA)
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

  private long contar(String sql, String... parametros) throws SQLException {
    try (Connection conexao = conectar();
        PreparedStatement consulta = conexao.prepareStatement(sql)) {
      for (int i = 0; i < parametros.length; i++) {
        consulta.setString(i + 1, parametros[i]);
      }
      try (ResultSet linhas = consulta.executeQuery()) {
        linhas.next();
        return linhas.getLong(1);
      }
    }
  }

  private Connection conectar() throws SQLException {
    return DriverManager.getConnection(postgres.jdbcUrl(), postgres.usuario(), postgres.senha());
  }
}
