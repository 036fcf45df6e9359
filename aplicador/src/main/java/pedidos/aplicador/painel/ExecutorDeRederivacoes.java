package pedidos.aplicador.painel;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.aplicador.painel.LotesDeRederivacao.Lote;
import pedidos.aplicador.painel.RederivacaoDoPedido.Rederivado;
import pedidos.aplicador.reconciliacao.TravaDaRodada;
import pedidos.contrato.MascaraDeEmail;
import pedidos.dominio.Efeito;

/**
 * Runs the bulk re-derivation jobs ({@link LotesDeRederivacao}), one order at a time through the
 * single order's re-derivation ({@link RederivacaoDoPedido#rederivarNaTransacao}), on whichever
 * instance holds the jobs' lease.
 *
 * <p>The lease is {@link TravaDaRodada}'s: a session advisory lock whose session lives only while
 * this instance proves it is alive, so a job runs on one instance at a time, and an instance that
 * stopped or went silent hands it over within seconds. Each order is one transaction that also
 * advances the job's cursor, on the condition that the job is still in the state and at the cursor
 * this runner read: an order is counted once even if a lease were lost mid-order, a pause or a
 * cancel takes effect at the next order (the order in flight is rolled back, and re-deriving it
 * again later changes nothing), and a restarted instance, or another, goes on from the cursor.
 *
 * <p>The dry run takes the same path, inside a savepoint it rolls back: the same code and the same
 * domain rules compute what would change, and nothing of it is written but the job's counts and its
 * before/after rows. The pace is the job's orders per second, at most {@code
 * aplicador.rederivacao-em-massa.pedidos-por-segundo}, so the live pipeline keeps its latency.
 */
@Component
public class ExecutorDeRederivacoes implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(ExecutorDeRederivacoes.class);

  /** The jobs' lease, beside the reconciliation round's key (1) in {@link TravaDaRodada}. */
  static final int CHAVE_DA_TRAVA = 2;

  static final int PEDIDOS_POR_LEITURA = 100;

  static final String PROXIMO =
      """
      SELECT id FROM rederivacoes_em_massa
       WHERE estado IN ('simulando', 'executando')
       ORDER BY id LIMIT 1
      """;

  static final String ESTADO =
      """
      SELECT estado, pedidos_por_segundo, simulacao_cursor, execucao_cursor
        FROM rederivacoes_em_massa WHERE id = :lote
      """;

  /** The next orders of the set: a range of the key (lote, pedido_id), whatever the set's size. */
  static final String PEDIDOS =
      """
      SELECT pedido_id FROM rederivacoes_em_massa_pedidos
       WHERE lote = :lote AND pedido_id > :cursor
       ORDER BY pedido_id
       LIMIT :quantos
      """;

  static final String PRIMEIROS_PEDIDOS =
      """
      SELECT pedido_id FROM rederivacoes_em_massa_pedidos
       WHERE lote = :lote
       ORDER BY pedido_id
       LIMIT :quantos
      """;

  /**
   * One order of a phase done: its cursor moves past it and its counts grow, only while the job is
   * in that phase at the cursor read (an instance that lost the job changes nothing). The same
   * statement for both phases, on each one's columns: {@code %1$s} the phase's column prefix,
   * {@code %2$s} its state.
   */
  private static final String AVANCAR =
      """
      UPDATE rederivacoes_em_massa
         SET %1$s_cursor = :pedido, %1$s_feitos = %1$s_feitos + 1,
             %1$s_mudados = %1$s_mudados + :mudou,
             %1$s_efeitos = %1$s_efeitos + :efeitos,
             %1$s_falhas = %1$s_falhas + :falhou,
             executado_por = :instancia, atualizado_em = now()
       WHERE id = :lote AND estado = '%2$s'
         AND %1$s_cursor IS NOT DISTINCT FROM CAST(:cursor AS text)
      """;

  static final String AVANCAR_SIMULACAO = AVANCAR.formatted("simulacao", "simulando");

  static final String AVANCAR_EXECUCAO = AVANCAR.formatted("execucao", "executando");

  /** Only the first changes of a phase are kept; the counts cover them all. */
  static final String GUARDAR_MUDANCA =
      """
      INSERT INTO rederivacoes_em_massa_mudancas (lote, fase, pedido_id, antes, depois, efeitos)
      SELECT :lote, :fase, :pedido, :antes, :depois, :efeitos
       WHERE (SELECT count(*) FROM rederivacoes_em_massa_mudancas
               WHERE lote = :lote AND fase = :fase) < :limite
      ON CONFLICT DO NOTHING
      """;

  static final String TERMINAR_SIMULACAO =
      """
      UPDATE rederivacoes_em_massa SET estado = 'simulado', atualizado_em = now()
       WHERE id = :lote AND estado = 'simulando'
         AND simulacao_cursor IS NOT DISTINCT FROM CAST(:cursor AS text)
      """;

  static final String CONCLUIR =
      """
      UPDATE rederivacoes_em_massa
         SET estado = 'concluido', atualizado_em = now(), terminado_em = now()
       WHERE id = :lote AND estado = 'executando'
         AND execucao_cursor IS NOT DISTINCT FROM CAST(:cursor AS text)
      """;

  private final JdbcClient jdbc;
  private final TransactionTemplate transacao;
  private final DataSource dataSource;
  private final RederivacaoDoPedido rederivacao;
  private final LotesDeRederivacao lotes;
  private final AplicadorProperties.RederivacaoEmMassa config;
  private final boolean periodico;
  private final String instancia;
  private final Semaphore sinal = new Semaphore(0);
  private volatile CountDownLatch parando = new CountDownLatch(1);
  private volatile Thread linha;
  private ScheduledExecutorService batimentos;

  ExecutorDeRederivacoes(
      JdbcClient jdbc,
      TransactionTemplate transacao,
      DataSource dataSource,
      RederivacaoDoPedido rederivacao,
      LotesDeRederivacao lotes,
      AplicadorProperties propriedades) {
    this.jdbc = jdbc;
    this.transacao = transacao;
    this.dataSource = dataSource;
    this.rederivacao = rederivacao;
    this.lotes = lotes;
    this.config = propriedades.rederivacaoEmMassa();
    this.periodico = propriedades.tarefasPeriodicas();
    this.instancia =
        System.getenv().getOrDefault("HOSTNAME", "aplicador")
            + "/"
            + ProcessHandle.current().pid()
            + "/"
            + UUID.randomUUID().toString().substring(0, 8);
  }

  /** The name this instance writes on the jobs it advances. */
  public String instancia() {
    return instancia;
  }

  /** Looks for work now rather than at the next interval: a job was created or resumed here. */
  public void acordar() {
    sinal.release();
  }

  /** With the periodic work: the commands' context and most tests run without it. */
  @Override
  public boolean isAutoStartup() {
    return config.executor() && periodico;
  }

  /** Starts the runner's thread; the commands' context starts it by hand to run its own job. */
  @Override
  public synchronized void start() {
    if (isRunning()) {
      return;
    }
    parando = new CountDownLatch(1);
    batimentos =
        Executors.newSingleThreadScheduledExecutor(
            tarefa -> {
              Thread t = new Thread(tarefa, "rederivacao-em-massa-trava");
              t.setDaemon(true);
              return t;
            });
    // Never interrupted, so that no statement is cut mid-transaction: stopping is a signal it
    // waits on, between orders.
    Thread t = new Thread(this::executarSempre, "rederivacao-em-massa");
    t.setDaemon(true);
    linha = t;
    t.start();
  }

  /**
   * Stops at the next order: the order in flight commits or rolls back whole, the lease is freed.
   */
  @Override
  public synchronized void stop() {
    parando.countDown();
    sinal.release();
    Thread t = linha;
    if (t != null) {
      try {
        t.join(config.intervalo().plusSeconds(30).toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (batimentos != null) {
      batimentos.shutdownNow();
    }
    linha = null;
  }

  @Override
  public boolean isRunning() {
    Thread t = linha;
    return t != null && t.isAlive();
  }

  private boolean parando() {
    return parando.getCount() == 0;
  }

  private void executarSempre() {
    while (!parando()) {
      try {
        executarOQueHouver();
      } catch (SQLException | RuntimeException e) {
        log.warn(
            "bulk re-derivation: {}; trying again in {}",
            MascaraDeEmail.mascararNoTexto(String.valueOf(e.getMessage())),
            config.intervalo(),
            MascaraDeEmail.mascararNaExcecao(e));
      }
      try {
        sinal.tryAcquire(config.intervalo().toMillis(), TimeUnit.MILLISECONDS);
        sinal.drainPermits();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * When a job has work and this instance gets the lease: runs jobs, oldest first, until none has
   * work left, this instance stops, or the lease is lost.
   */
  void executarOQueHouver() throws SQLException {
    if (proximo().isEmpty()) {
      return;
    }
    Optional<TravaDaRodada> trava =
        TravaDaRodada.tentar(dataSource, batimentos, CHAVE_DA_TRAVA, "bulk re-derivation lease");
    if (trava.isEmpty()) {
      return;
    }
    try (TravaDaRodada propria = trava.get()) {
      Optional<Long> lote;
      while (segue(propria) && (lote = proximo()).isPresent()) {
        executar(lote.get(), propria);
      }
    }
  }

  private boolean segue(TravaDaRodada trava) {
    return !parando() && trava.valida();
  }

  private Optional<Long> proximo() {
    return jdbc.sql(PROXIMO).query(Long.class).optional();
  }

  /** The job's phase under way, from its cursor, until it ends, changes state or must stop. */
  private void executar(long lote, TravaDaRodada trava) {
    Map<String, Object> linhaDoLote = jdbc.sql(ESTADO).param("lote", lote).query().singleRow();
    String estado = (String) linhaDoLote.get("estado");
    boolean simulacao = LotesDeRederivacao.SIMULANDO.equals(estado);
    if (!simulacao && !LotesDeRederivacao.EXECUTANDO.equals(estado)) {
      return;
    }
    String cursor = (String) linhaDoLote.get(simulacao ? "simulacao_cursor" : "execucao_cursor");
    long passoEmNanos =
        TimeUnit.SECONDS.toNanos(1) / ((Number) linhaDoLote.get("pedidos_por_segundo")).intValue();
    log.info("bulk re-derivation: job {} {} from {} on {}", lote, estado, cursor, instancia);
    long proximoEm = System.nanoTime();
    while (segue(trava)) {
      var leitura = jdbc.sql(cursor == null ? PRIMEIROS_PEDIDOS : PEDIDOS).param("lote", lote);
      if (cursor != null) {
        leitura = leitura.param("cursor", cursor);
      }
      List<String> pedidos =
          leitura.param("quantos", PEDIDOS_POR_LEITURA).query(String.class).list();
      if (pedidos.isEmpty()) {
        terminar(lote, simulacao, cursor);
        return;
      }
      for (String pedido : pedidos) {
        long agora = System.nanoTime();
        if (proximoEm > agora && esperar(proximoEm - agora)) {
          return;
        }
        proximoEm = Math.max(proximoEm, agora) + passoEmNanos;
        if (!segue(trava) || !passo(lote, simulacao, cursor, pedido)) {
          return;
        }
        cursor = pedido;
      }
    }
  }

  /** Whether the runner must stop while waiting for its pace. */
  private boolean esperar(long nanos) {
    try {
      return parando.await(nanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /**
   * One order, in one transaction with the job's cursor: re-derived in a savepoint (rolled back in
   * the dry run, or when it fails: the failure is counted and the job goes on, never retried
   * without end).
   *
   * @return false when the job was no longer in this state at this cursor (paused, cancelled, or
   *     advanced by another holder): nothing of this order is kept
   */
  private boolean passo(long lote, boolean simulacao, String cursor, String pedido) {
    return Boolean.TRUE.equals(
        transacao.execute(
            status -> {
              Object savepoint = status.createSavepoint();
              Rederivado r = null;
              String falha = null;
              try {
                r = rederivacao.rederivarNaTransacao(pedido);
                if (simulacao) {
                  status.rollbackToSavepoint(savepoint);
                } else {
                  status.releaseSavepoint(savepoint);
                }
              } catch (RuntimeException e) {
                status.rollbackToSavepoint(savepoint);
                falha = MascaraDeEmail.mascararNoTexto(String.valueOf(e.getMessage()));
                log.warn(
                    "bulk re-derivation: job {} pedido_id={} failed: {}",
                    lote,
                    pedido,
                    falha,
                    MascaraDeEmail.mascararNaExcecao(e));
              }
              boolean mudou = r != null && r.mudou();
              int efeitos = r == null ? 0 : r.novos().size();
              int avancou =
                  jdbc.sql(simulacao ? AVANCAR_SIMULACAO : AVANCAR_EXECUCAO)
                      .param("lote", lote)
                      .param("cursor", cursor)
                      .param("pedido", pedido)
                      .param("mudou", mudou ? 1 : 0)
                      .param("efeitos", efeitos)
                      .param("falhou", falha == null ? 0 : 1)
                      .param("instancia", instancia)
                      .update();
              if (avancou == 0) {
                status.setRollbackOnly();
                return false;
              }
              if (mudou || efeitos > 0 || falha != null) {
                jdbc.sql(GUARDAR_MUDANCA)
                    .param("lote", lote)
                    .param("fase", simulacao ? "simulacao" : "execucao")
                    .param("pedido", pedido)
                    .param("antes", r == null ? null : r.estadoAntes() + r.veredictos())
                    .param("depois", r == null ? null : r.estadoDepois())
                    .param(
                        "efeitos",
                        falha != null
                            ? "failed: " + falha
                            : r.novos().stream()
                                .map(Efeito::codigo)
                                .collect(Collectors.joining(" ")))
                    .param("limite", config.mudancasGuardadas())
                    .update();
              }
              return true;
            }));
  }

  /** The phase's end and, for the run, the job's audit row with its counts, in one transaction. */
  private void terminar(long lote, boolean simulacao, String cursor) {
    transacao.executeWithoutResult(
        status -> {
          int terminou =
              jdbc.sql(simulacao ? TERMINAR_SIMULACAO : CONCLUIR)
                  .param("lote", lote)
                  .param("cursor", cursor)
                  .update();
          if (terminou == 1) {
            Lote feito = lotes.ler(lote).orElseThrow();
            if (!simulacao) {
              lotes.auditarFim(feito);
            }
            log.info("bulk re-derivation: {}", feito.linhaDeProgresso());
          }
        });
  }

  /**
   * Follows a job until it rests (dry run done, paused, concluded or cancelled), calling {@code
   * progresso} about once a second: the command line's progress line. Whichever instance holds the
   * lease runs it, this one too when its runner is started.
   */
  public Lote acompanhar(long id, Consumer<Lote> progresso) throws InterruptedException {
    while (true) {
      Lote lote = lotes.ler(id).orElseThrow(() -> new IllegalArgumentException("no job " + id));
      progresso.accept(lote);
      if (!LotesDeRederivacao.SIMULANDO.equals(lote.estado())
          && !LotesDeRederivacao.EXECUTANDO.equals(lote.estado())) {
        return lote;
      }
      if (parando.await(1, TimeUnit.SECONDS)) {
        return lote;
      }
    }
  }
}
