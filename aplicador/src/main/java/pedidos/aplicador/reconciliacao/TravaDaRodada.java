package pedidos.aplicador.reconciliacao;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock that lets one aplicador at a time run a reconciliation round: a session-level advisory
 * lock on a pooled connection of its own, held for the round, whose session lives only while this
 * instance proves it is alive.
 *
 * <p>A round runs for seconds to minutes (pages of the store's API), so the lock cannot be a
 * transaction's, which {@code idle_in_transaction_session_timeout} would end mid-round. A session
 * lock alone, though, outlives a client that went silent behind a partition (the server keeps the
 * backend), and every other instance would skip its rounds ({@code OCUPADA}) until the session's
 * pooled {@code idle_session_timeout} (5 min). So the session runs with {@link #VALIDADE} as its
 * idle timeout while it holds the lock, and a heartbeat runs a statement on it every {@link
 * #BATIMENTO}. A round whose heartbeat failed stops at its next page: rounds are idempotent (facts
 * stored once, the cursor never backwards), so the next holder simply goes on.
 *
 * <p>The bulk re-derivation's runner holds its job lease the same way, under a key of its own
 * ({@link #tentar(DataSource, ScheduledExecutorService, int, String)}).
 */
public final class TravaDaRodada implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TravaDaRodada.class);

  static final Duration VALIDADE = Duration.ofSeconds(10);
  static final Duration BATIMENTO = Duration.ofSeconds(2);

  // The two-int form of advisory locks is a key space apart from the orders' bigint keys.
  static final String TRAVAR_A_CHAVE =
      """
      SELECT pg_try_advisory_lock(1349284, %d)
      """;

  static final String DESTRAVAR_A_CHAVE =
      """
      SELECT pg_advisory_unlock(1349284, %d)
      """;

  /** The reconciliation round's key. */
  static final int RECONCILIACAO = 1;

  static final String TRAVAR = TRAVAR_A_CHAVE.formatted(RECONCILIACAO);
  static final String DESTRAVAR = DESTRAVAR_A_CHAVE.formatted(RECONCILIACAO);

  static final String PROVAR =
      """
      SELECT true
      """;

  // Set before the lock is taken, reset before the connection goes back to the pool.
  static final String LIMITAR_A_SESSAO = "SET idle_session_timeout = " + VALIDADE.toMillis();
  static final String SOLTAR_A_SESSAO = "RESET idle_session_timeout";

  private final Connection conexao;
  private final int chave;
  private final String nome;
  private final ScheduledFuture<?> batimentos;
  private volatile boolean valida = true;

  private TravaDaRodada(
      Connection conexao, int chave, String nome, ScheduledExecutorService agenda) {
    this.conexao = conexao;
    this.chave = chave;
    this.nome = nome;
    this.batimentos =
        agenda.scheduleWithFixedDelay(
            this::provar, BATIMENTO.toMillis(), BATIMENTO.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * The lock if no other instance holds it, with its heartbeat started; empty otherwise.
   *
   * @throws SQLException when the database cannot be reached
   */
  static Optional<TravaDaRodada> tentar(DataSource dataSource, ScheduledExecutorService agenda)
      throws SQLException {
    return tentar(dataSource, agenda, RECONCILIACAO, "reconciliation lock");
  }

  /**
   * The same under another key (any but {@link #RECONCILIACAO}), named in the log when it is lost.
   *
   * @throws SQLException when the database cannot be reached
   */
  public static Optional<TravaDaRodada> tentar(
      DataSource dataSource, ScheduledExecutorService agenda, int chave, String nome)
      throws SQLException {
    Connection conexao = dataSource.getConnection();
    try {
      comando(conexao, LIMITAR_A_SESSAO);
      if (verdadeiro(conexao, TRAVAR_A_CHAVE.formatted(chave))) {
        return Optional.of(new TravaDaRodada(conexao, chave, nome, agenda));
      }
      comando(conexao, SOLTAR_A_SESSAO);
      conexao.close();
      return Optional.empty();
    } catch (SQLException | RuntimeException e) {
      conexao.close();
      throw e;
    }
  }

  /** Whether the lock is still this instance's: no heartbeat has failed. */
  public boolean valida() {
    return valida;
  }

  private synchronized void provar() {
    if (!valida) {
      return;
    }
    try {
      verdadeiro(conexao, PROVAR);
    } catch (SQLException | RuntimeException e) {
      valida = false;
      log.warn(
          "{} lost: its session did not answer ({}); its work stops at its next step",
          nome,
          e.getMessage());
    }
  }

  @Override
  public synchronized void close() throws SQLException {
    batimentos.cancel(false);
    try {
      if (valida) {
        verdadeiro(conexao, DESTRAVAR_A_CHAVE.formatted(chave));
        comando(conexao, SOLTAR_A_SESSAO);
      }
    } finally {
      // A dead session makes the pool drop the connection.
      conexao.close();
    }
  }

  private static boolean verdadeiro(Connection conexao, String sql) throws SQLException {
    try (Statement comando = conexao.createStatement();
        ResultSet linhas = comando.executeQuery(sql)) {
      return linhas.next() && linhas.getBoolean(1);
    }
  }

  private static void comando(Connection conexao, String sql) throws SQLException {
    try (Statement comando = conexao.createStatement()) {
      comando.execute(sql);
    }
  }
}
