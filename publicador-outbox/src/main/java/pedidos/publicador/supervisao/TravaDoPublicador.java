package pedidos.publicador.supervisao;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import pedidos.publicador.configuracao.ConexaoDoBanco;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.publicador.metricas.MetricasDoPublicador;

/**
 * The lease that makes one relay active per slot: a session-level advisory lock, held on a
 * connection of its own, whose session lives only as long as its holder keeps proving it is alive.
 *
 * <p>A session lock alone dies with its backend, not with its client: behind a partition, a frozen
 * NAT entry or a hung proxy, the server keeps a silent client's backend (and the lock) forever, and
 * no relay ever takes the lease again. So the lease session runs with {@code idle_session_timeout}
 * set to {@code publicador.trava.validade}, and the holder proves the lock is still its own every
 * {@code publicador.trava.intervalo}: a holder that goes silent has its session ended by the server
 * within the time to live, and a standby takes the lease on its next try.
 *
 * <p>The holder fences itself on its own clock: it sends nothing once half the time to live has
 * passed since the last proof it started ({@link #vigente()}), and the server cannot end the
 * session sooner than the full time to live after that proof began, so two relays never publish at
 * once. The holder also ends whatever session still streams the slot before it starts an engine
 * ({@link #liberarOSlot()}): the walsender of a holder that lost the lease, which the server would
 * otherwise keep until its {@code wal_sender_timeout}.
 *
 * <p>The heartbeat runs on a thread of its own, so that nothing the supervisor waits for (a Kafka
 * that does not answer, an engine slow to stop, a back-off) ever leaves the lease unproven. A loss
 * is logged, counted ({@code publicador_trava_perdida_total}) and shown in health; the supervisor
 * then stops its engine and competes for the lease again like a standby.
 *
 * <p>The connection is opened outside the pool on purpose: a pooled connection goes back to the
 * pool still holding the lock, and the pool may close it at any time. Synchronized: the
 * supervisor's thread takes the lease, the heartbeat's proves it.
 */
@Component
class TravaDoPublicador implements DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(TravaDoPublicador.class);
  // Neither statement ever waits on a lock; anything slower is a server in trouble.
  private static final Duration ESPERA_DO_COMANDO = Duration.ofSeconds(5);

  // The two-int4 form lives in a key space of its own (objsubid 2): the applier's per-order locks
  // use the one-bigint form, so no order id can ever collide with the lease.
  static final String TENTAR =
      """
      SELECT pg_try_advisory_lock(?, hashtext(?))
      """;

  // The heartbeat: this session still holds the lock (int4 to oid keeps the bits, as pg_locks
  // shows a negative key).
  static final String PROVAR =
      """
      SELECT EXISTS (
        SELECT 1 FROM pg_locks
         WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted AND objsubid = 2
           AND classid = CAST(? AS oid) AND objid = CAST(hashtext(?) AS oid))
      """;

  // Waits up to 5 s for each session to be gone, so the engine then finds the slot free.
  static final String LIBERAR_O_SLOT =
      """
      SELECT active_pid, pg_terminate_backend(active_pid, 5000) AS terminada
        FROM pg_replication_slots
       WHERE slot_name = ? AND active_pid IS NOT NULL
      """;

  // "publ" in ASCII: the class of every lease of this relay; the slot name tells them apart.
  static final int CLASSE_DA_TRAVA = 0x7075626C;

  private final ConexaoDoBanco banco;
  private final MetricasDoPublicador metricas;
  private final Clock clock;
  private final String slot;
  private final String nomeDaTrava;
  private final Duration validade;
  private final long vigenciaEmNanos;
  private final ScheduledExecutorService batimentos;
  private final AtomicInteger perdas = new AtomicInteger();
  private volatile Instant perdidaEm;
  private Connection conexao;
  private volatile boolean adquirida;
  private boolean falhaAvisada;
  // System.nanoTime() when the last proof that succeeded was sent: the server's idle clock for the
  // session cannot have started before it. Set before adquirida, which vigente() reads first.
  private volatile long provadaEm;

  TravaDoPublicador(
      ConexaoDoBanco banco,
      PublicadorProperties propriedades,
      MetricasDoPublicador metricas,
      Clock clock) {
    this.banco = banco;
    this.metricas = metricas;
    this.clock = clock;
    this.slot = propriedades.slot();
    this.nomeDaTrava = "publicador-outbox:" + propriedades.slot();
    this.validade = propriedades.trava().validade();
    this.vigenciaEmNanos = propriedades.trava().vigencia().toNanos();
    String nome = "publicador-trava-" + propriedades.prefixo();
    this.batimentos =
        Executors.newSingleThreadScheduledExecutor(
            tarefa -> {
              Thread linha = new Thread(tarefa, nome);
              linha.setDaemon(true);
              return linha;
            });
    long intervalo = propriedades.trava().intervalo().toMillis();
    batimentos.scheduleWithFixedDelay(this::bater, intervalo, intervalo, TimeUnit.MILLISECONDS);
  }

  /**
   * True when this instance holds the lease, trying to take it if it does not (or no longer does:
   * after a lost session, on a new one, unless another instance was faster).
   */
  synchronized boolean tentarAdquirir() {
    if (adquirida) {
      return true;
    }
    try {
      if (conexao == null || conexao.isClosed()) {
        conexao = conectar();
      }
      long inicio = System.nanoTime();
      boolean tomada;
      try (PreparedStatement tentar = conexao.prepareStatement(TENTAR)) {
        tentar.setInt(1, CLASSE_DA_TRAVA);
        tentar.setString(2, nomeDaTrava);
        try (ResultSet resultado = tentar.executeQuery()) {
          resultado.next();
          tomada = resultado.getBoolean(1);
        }
      }
      falhaAvisada = false;
      if (tomada) {
        provadaEm = inicio;
      }
      adquirida = tomada;
      return tomada;
    } catch (SQLException e) {
      // The database is unreachable: nobody can stream anyway. Warn once per outage.
      if (!falhaAvisada) {
        log.warn("Could not try the lease {}: {}", nomeDaTrava, e.getMessage());
        falhaAvisada = true;
      }
      liberar();
      return false;
    }
  }

  private void bater() {
    try {
      if (adquirida) {
        provar();
      }
    } catch (RuntimeException e) {
      // The next beat tries again; a lease left unproven closes the fence by itself.
      log.warn("The lease's heartbeat failed", e);
    }
  }

  /**
   * The heartbeat: whether the lease is still this instance's, shown by its session within the
   * socket timeout. False gives it up (the session is closed): the supervisor stops its engine.
   */
  synchronized boolean provar() {
    if (!adquirida) {
      return false;
    }
    long inicio = System.nanoTime();
    String motivo;
    try (PreparedStatement provar = conexao.prepareStatement(PROVAR)) {
      provar.setInt(1, CLASSE_DA_TRAVA);
      provar.setString(2, nomeDaTrava);
      try (ResultSet resultado = provar.executeQuery()) {
        resultado.next();
        if (resultado.getBoolean(1)) {
          provadaEm = inicio;
          if (vigente()) {
            return true;
          }
          motivo = "its last proof came too late";
        } else {
          motivo = "its session no longer holds the lock";
        }
      }
    } catch (SQLException e) {
      motivo = "its session did not answer (" + e.getMessage() + ")";
    }
    perdas.incrementAndGet();
    perdidaEm = clock.instant();
    metricas.travaPerdida();
    log.warn("Lost the lease {}: {}; competing for it again", nomeDaTrava, motivo);
    liberar();
    return false;
  }

  /** Times this instance lost the lease it held (never counting a release of its own). */
  int perdas() {
    return perdas.get();
  }

  /** When it last did; null if never. */
  Instant perdidaEm() {
    return perdidaEm;
  }

  @Override
  public void destroy() {
    batimentos.shutdownNow();
  }

  /**
   * Whether this instance may send now: it holds the lease and proved it less than half the time to
   * live ago. Read on every batch, so it takes no lock.
   */
  boolean vigente() {
    return adquirida && System.nanoTime() - provadaEm < vigenciaEmNanos;
  }

  /** Read without waiting for a heartbeat in progress. */
  boolean adquirida() {
    return adquirida;
  }

  /** Gives the lease up by closing its session; a standby may take it at once. */
  synchronized void liberar() {
    adquirida = false;
    if (conexao == null) {
      return;
    }
    try {
      // Behind a partition the server never hears this: its idle_session_timeout ends the session.
      conexao.close();
    } catch (SQLException e) {
      log.debug("Error closing the lease connection", e);
    }
    conexao = null;
  }

  /**
   * Ends every session still streaming the slot. Only the lease's holder streams it, so whatever is
   * there belongs to a holder that lost the lease (its engine still stopping, or a walsender whose
   * client vanished). Best effort: without the right to end it, the engine's own retries and the
   * server's {@code wal_sender_timeout} remain.
   */
  synchronized void liberarOSlot() {
    if (!adquirida) {
      return;
    }
    try (PreparedStatement liberar = conexao.prepareStatement(LIBERAR_O_SLOT)) {
      liberar.setString(1, slot);
      List<String> encerradas = new ArrayList<>();
      try (ResultSet resultado = liberar.executeQuery()) {
        while (resultado.next()) {
          encerradas.add(
              resultado.getInt("active_pid")
                  + (resultado.getBoolean("terminada") ? "" : " (still ending)"));
        }
      }
      if (!encerradas.isEmpty()) {
        log.warn(
            "The slot {} was still streamed by a relay that lost the lease: ended its session {}",
            slot,
            encerradas);
      }
    } catch (SQLException e) {
      log.warn("Could not end the sessions still streaming the slot {}: {}", slot, e.getMessage());
    }
  }

  private Connection conectar() throws SQLException {
    // Every call gives up within half the time to live: by then the fence has closed anyway.
    return DriverManager.getConnection(
        banco.jdbcUrl(),
        banco.propriedadesDoDriver(
            "publicador-outbox-trava",
            validade.dividedBy(2),
            minimo(ESPERA_DO_COMANDO, validade.dividedBy(2)),
            validade));
  }

  private static Duration minimo(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
