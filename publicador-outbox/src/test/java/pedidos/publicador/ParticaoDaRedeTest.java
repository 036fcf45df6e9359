package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;
import pedidos.infra.ProxyCongelavel;
import pedidos.publicador.supervisao.Papel;
import pedidos.testes.InfraDeTeste;

/**
 * A partition between the active relay and PostgreSQL, under a steady load of inserts: every
 * connection the relay has open freezes in both directions and none is closed, so PostgreSQL keeps
 * a healthy socket to each and its backends (the lease's session lock, the walsender on the slot)
 * stay until the server ends them; connections opened afterwards work. The lease's time to live and
 * the fence are the production defaults (1 s heartbeat, 10 s).
 *
 * <p>With a standby on a healthy network, the standby publishes again within 60 s, never while the
 * partitioned relay still publishes, and the partitioned relay stands by once the partition heals
 * (PipelineDePontaAPontaTest heals one after 30 s, with every service behind it). Alone and never
 * healed, the relay itself takes the lease again through new connections within 60 s. Either way
 * nothing is lost, and no frozen backend keeps a lock, a transaction or the slot. The relay that
 * takes the lease back runs the outbox fallback again.
 */
class ParticaoDaRedeTest {

  private static final Logger log = LoggerFactory.getLogger(ParticaoDaRedeTest.class);
  private static final String SLOT = "teste_particao";
  private static final Duration ALVO = Duration.ofSeconds(60);

  // The frozen connections' backends that still hold what a live relay needs.
  private static final String ZUMBIS_QUE_PRENDEM =
      """
      SELECT count(*) FROM pg_stat_activity a
       WHERE a.client_port = ANY (?)
         AND (a.state LIKE 'idle in transaction%'
              OR EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory')
              OR EXISTS (SELECT 1 FROM pg_replication_slots s WHERE s.active_pid = a.pid))
      """;

  private final String prefixo = "p" + UUID.randomUUID().toString().substring(0, 6) + "-";
  private final Map<String, Object> kafka = InfraDeTeste.clienteDoKafka();
  private final PostgresLocal postgres = InfraLocal.compartilhada().postgres();

  @Test
  void comReservaAParticaoQueSaraNuncaDeixaDoisPublicandoNemNenhum() throws Exception {
    try (ProxyCongelavel proxy = new ProxyCongelavel(postgres.porta())) {
      RelayDeTeste particionado = RelayDeTeste.iniciar(pelo(proxy, "pta")).aguardarTransmitindo();
      RelayDeTeste reserva = RelayDeTeste.iniciar(comOsPadroesDaTrava("ptb"));
      try (LeitorDeTopico eventos = LeitorDeTopico.novos(kafka, "loja.eventos");
          EscritorDeLotes escritor = new EscritorDeLotes(prefixo, 10, 1, 40);
          Amostrador amostras = new Amostrador(particionado, reserva)) {
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> reserva.situacao().papel() == Papel.RESERVA);
        ReinicioTest.aguardarProgresso(eventos, escritor, prefixo);

        Particao particao = particionarEAguardarPublicacao(proxy, eventos);
        assertThat(reserva.situacao().papel()).isEqualTo(Papel.ATIVO);

        // Healed once the standby relays (the end-to-end test heals after 30 s): the partitioned
        // relay's frozen sessions now hear the server end them, and it must stay a standby.
        proxy.descongelar();
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> particionado.situacao().papel() == Papel.RESERVA);
        assertThat(particionado.situacao().perdasDaTrava()).isPositive();
        assertThat(reserva.situacao().papel()).isEqualTo(Papel.ATIVO);

        ReinicioTest.aguardarProgresso(eventos, escritor, prefixo);
        escritor.parar();
        tudoPublicado(eventos, escritor);
        amostras.nuncaDoisPublicando();
        assertThat(zumbisQuePrendem(particao.congeladas())).isZero();
      } finally {
        reserva.close();
        particionado.close();
        BancoDeTeste.apagarSlot(SLOT);
      }
    }
  }

  @Test
  void sozinhoAParticaoQueNuncaSaraORelayVoltaPorConexoesNovas() throws Exception {
    try (ProxyCongelavel proxy = new ProxyCongelavel(postgres.porta())) {
      RelayDeTeste relay = RelayDeTeste.iniciar(pelo(proxy, "ptc")).aguardarTransmitindo();
      try (LeitorDeTopico eventos = LeitorDeTopico.novos(kafka, "loja.eventos");
          EscritorDeLotes escritor = new EscritorDeLotes(prefixo, 10, 1, 40)) {
        ReinicioTest.aguardarProgresso(eventos, escritor, prefixo);

        Particao particao = particionarEAguardarPublicacao(proxy, eventos);
        assertThat(relay.situacao().perdasDaTrava()).isPositive();
        assertThat(relay.situacao().papel()).isEqualTo(Papel.ATIVO);
        // The server ended each frozen backend that held something; the proxy keeps the sockets.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> zumbisQuePrendem(particao.congeladas()) == 0);

        ReinicioTest.aguardarProgresso(eventos, escritor, prefixo);
        escritor.parar();
        tudoPublicado(eventos, escritor);
      } finally {
        relay.close();
        BancoDeTeste.apagarSlot(SLOT);
      }
    }
  }

  /**
   * The fallback runs again under the relay that takes the lease back: outbox rows the stream can
   * no longer deliver (here the slot was lost while nobody held the lease, and rows were written
   * before the new engine recreated it) are re-sent from the table.
   */
  @Test
  void oReenvioVoltaACorrerComQuemRetomaATrava() throws Exception {
    try (ProxyCongelavel proxy = new ProxyCongelavel(postgres.porta())) {
      Map<String, String> propriedades = pelo(proxy, "ptd");
      propriedades.put("publicador.reenvio.idade", "2s");
      propriedades.put("publicador.reenvio.intervalo", "300ms");
      RelayDeTeste relay = RelayDeTeste.iniciar(propriedades).aguardarTransmitindo();
      try {
        BancoDeTeste.inserirEfeito(prefixo + "antes", "liberar_separacao", "pago", 1L, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> BancoDeTeste.naoEnviados(prefixo) == 0);
        double reenviadasAntes = reenviadas(relay);

        proxy.congelar();
        await().atMost(Duration.ofSeconds(20)).until(() -> relay.situacao().papel() != Papel.ATIVO);
        assertThat(relay.situacao().perdasDaTrava()).isPositive();
        // The lease is still held by the frozen session for a few seconds: nobody streams. The
        // slot goes, and rows land that no stream will carry.
        BancoDeTeste.JDBC
            .sql(
                """
                SELECT pg_terminate_backend(active_pid, 5000) FROM pg_replication_slots
                 WHERE slot_name = ? AND active_pid IS NOT NULL
                """)
            .param(SLOT)
            .query((linha, n) -> 1)
            .list();
        BancoDeTeste.apagarSlot(SLOT);
        for (int i = 1; i <= 5; i++) {
          BancoDeTeste.inserirEfeito(prefixo + "lacuna" + i, "liberar_separacao", "pago", 1L, null);
        }
        assertThat(relay.situacao().papel())
            .as("still without the lease")
            .isNotEqualTo(Papel.ATIVO);

        await().atMost(ALVO).until(() -> BancoDeTeste.naoEnviados(prefixo + "lacuna") == 0);
        assertThat(relay.situacao().papel()).isEqualTo(Papel.ATIVO);
        assertThat(reenviadas(relay) - reenviadasAntes).isGreaterThanOrEqualTo(5);
      } finally {
        relay.close();
        BancoDeTeste.apagarSlot(SLOT);
      }
    }
  }

  private static double reenviadas(RelayDeTeste relay) {
    return relay
        .bean(MeterRegistry.class)
        .get("publicador.linhas.publicadas")
        .tags("tabela", "outbox", "via", "reenvio")
        .counter()
        .count();
  }

  /** When the partition began, and the server-side ports of the connections it froze. */
  private record Particao(long inicio, Set<Integer> congeladas) {}

  /** Freezes every open connection, then waits until a row written after that is published. */
  private Particao particionarEAguardarPublicacao(ProxyCongelavel proxy, LeitorDeTopico eventos) {
    Particao particao = new Particao(System.nanoTime(), proxy.congelar());
    BancoDeTeste.inserirEvento(prefixo + "depois", prefixo + "depois", "order.paid", "{}");
    await().atMost(ALVO).until(() -> !eventos.comChave(prefixo + "depois").isEmpty());
    log.info("Published again {} ms after the partition", desde(particao.inicio()).toMillis());
    return particao;
  }

  private Map<String, String> pelo(ProxyCongelavel proxy, String prefixoDoMotor) {
    Map<String, String> propriedades = comOsPadroesDaTrava(prefixoDoMotor);
    propriedades.put("spring.datasource.url", proxy.jdbcUrl(postgres));
    return propriedades;
  }

  private static Map<String, String> comOsPadroesDaTrava(String prefixoDoMotor) {
    Map<String, String> propriedades = RelayDeTeste.propriedades(SLOT, prefixoDoMotor);
    propriedades.remove("publicador.trava.intervalo");
    return propriedades;
  }

  private void tudoPublicado(LeitorDeTopico eventos, EscritorDeLotes escritor) {
    Set<String> escritos = escritor.eventos();
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> assertThat(eventos.campos(prefixo, "evento_id")).containsAll(escritos));
    await().atMost(Duration.ofSeconds(60)).until(() -> BancoDeTeste.naoEnviados(prefixo) == 0);
  }

  private static long zumbisQuePrendem(Set<Integer> portas) {
    return BancoDeTeste.JDBC
        .sql(ZUMBIS_QUE_PRENDEM)
        .param(portas.toArray(Integer[]::new))
        .query(Long.class)
        .single();
  }

  private static Duration desde(long inicio) {
    return Duration.ofNanos(System.nanoTime() - inicio);
  }

  /**
   * Each relay's count of records Kafka acknowledged, every 20 ms: once the standby has published
   * its first record, the partitioned relay must publish none (both counters rising in the same run
   * is two relays publishing at once).
   */
  private static final class Amostrador implements AutoCloseable {

    private final RelayDeTeste primeiro;
    private final RelayDeTeste segundo;
    private final List<double[]> amostras = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService agenda = Executors.newSingleThreadScheduledExecutor();

    Amostrador(RelayDeTeste primeiro, RelayDeTeste segundo) {
      this.primeiro = primeiro;
      this.segundo = segundo;
      agenda.scheduleAtFixedRate(
          () -> amostras.add(new double[] {publicadas(primeiro), publicadas(segundo)}),
          0,
          20,
          TimeUnit.MILLISECONDS);
    }

    void nuncaDoisPublicando() throws InterruptedException {
      agenda.shutdown();
      assertThat(agenda.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
      double[] ultima = {publicadas(primeiro), publicadas(segundo)};
      double[] inicial = amostras.get(0);
      assertThat(ultima[1]).as("the standby published").isGreaterThan(inicial[1]);
      double[] quandoOSegundoComecou =
          amostras.stream().filter(a -> a[1] > inicial[1]).findFirst().orElse(ultima);
      assertThat(ultima[0])
          .as("records the partitioned relay published after the standby's first")
          .isEqualTo(quandoOSegundoComecou[0]);
    }

    private static double publicadas(RelayDeTeste relay) {
      return relay
          .bean(MeterRegistry.class)
          .find("publicador.linhas.publicadas")
          .counters()
          .stream()
          .mapToDouble(Counter::count)
          .sum();
    }

    @Override
    public void close() {
      agenda.shutdownNow();
    }
  }
}
