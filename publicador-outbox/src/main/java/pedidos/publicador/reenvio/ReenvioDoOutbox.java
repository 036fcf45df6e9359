package pedidos.publicador.reenvio;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.publicador.entrega.EntregaDosEfeitos;
import pedidos.publicador.entrega.ModoDaEntrega;
import pedidos.publicador.envio.EnviadorDeMensagens;
import pedidos.publicador.envio.FalhaAoPublicarException;
import pedidos.publicador.envio.RegistroDeEnvios;
import pedidos.publicador.linhas.ChaveDoEfeito;
import pedidos.publicador.linhas.FalhasDaLinha;
import pedidos.publicador.linhas.FormatoDasMensagens;
import pedidos.publicador.linhas.Mensagem;
import pedidos.publicador.linhas.Morto;
import pedidos.publicador.linhas.OrigemDaLinha;
import pedidos.publicador.linhas.Tabela;
import pedidos.publicador.linhas.Via;
import pedidos.publicador.metricas.MetricasDoPublicador;
import pedidos.publicador.mortos.RegistroDeMortos;
import pedidos.publicador.mortos.RepublicacaoDosMortos;
import pedidos.publicador.supervisao.SupervisorDoPublicador;

/**
 * The fallback: outbox rows still unsent after {@code publicador.reenvio.idade} are sent again from
 * the table, and marked sent once Kafka acknowledges them.
 *
 * <p>The stream misses rows only when the slot does (a slot dropped or lost with a failover, a
 * database restored from a backup, rows written before the slot was first created); the table is
 * the truth, so the gap closes by itself. Runs on the active instance only, so that a standby does
 * not double every re-send. Every instance refreshes the backlog metrics.
 *
 * <p>The same path drains the backlog of a pause ({@link EntregaDosEfeitos}): while delivery is
 * paused it sends no effect; once resumed, every second it sends at most {@code
 * publicador.entrega.efeitos-por-segundo} unsent rows of any age, the orders with the oldest unsent
 * effect first and each order's effects in the order they are born, until none is left; then the
 * stream delivers them again.
 */
@Component
class ReenvioDoOutbox implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(ReenvioDoOutbox.class);

  /**
   * Unsent effects, the orders with the oldest first, every one of each order's in the order its
   * effects are born (the domain's {@code Efeito}: a release comes before its interruption, and a
   * refund last; one of each at most). Not by {@code criado_em} alone: that is the start of the
   * applying transaction, which one sub-batch shares among all its effects, and a transaction that
   * waited for the order's lock may commit a later effect with an earlier time. Dead letters are
   * left out until re-published: one row Kafka refuses for good must not be re-sent every interval
   * forever, nor hold back the rows behind it in each batch. {@code %s}: which unsent rows. Not
   * materialized: the batch's orders come from the oldest rows by the pending index, and only their
   * effects are read, however long the backlog.
   */
  private static final String PENDENTES_NA_ORDEM_EM_QUE_NASCEM =
      """
      WITH pendentes AS NOT MATERIALIZED (
        SELECT o.pedido_id, o.efeito, o.status, o.total_centavos, o.criado_em
          FROM outbox o
         WHERE o.enviado_em IS NULL%s
           AND NOT EXISTS (
                 SELECT 1 FROM publicador_mortos m
                  WHERE m.tabela = 'outbox' AND m.republicado_em IS NULL
                    AND m.chave = jsonb_build_object('pedido_id', o.pedido_id, 'efeito', o.efeito))
      ), pedidos AS (
        SELECT pedido_id, min(criado_em) AS primeiro
          FROM (SELECT pedido_id, criado_em FROM pendentes ORDER BY criado_em LIMIT :lote) AS p
         GROUP BY pedido_id
      )
      SELECT p.pedido_id, p.efeito, p.status, p.total_centavos, p.criado_em
        FROM pendentes p JOIN pedidos USING (pedido_id)
       ORDER BY pedidos.primeiro, p.pedido_id,
                array_position(
                  ARRAY['liberar_separacao', 'interromper_separacao', 'notificar_reembolso'],
                  p.efeito),
                p.criado_em
       LIMIT :lote
      """;

  /** The fallback's batch: the rows older than {@code :idade} seconds, each order's in order. */
  static final String PENDENTES_ANTIGOS =
      PENDENTES_NA_ORDEM_EM_QUE_NASCEM.formatted(
          " AND o.criado_em < now() - make_interval(secs => :idade)");

  /**
   * The drain's batch: every unsent row of any age, the orders with the oldest first and each
   * order's whole, so that a step's budget cuts an order after its older effects.
   */
  static final String PENDENTES_EM_ORDEM = PENDENTES_NA_ORDEM_EM_QUE_NASCEM.formatted("");

  /** Whether any effect is left for the drain (dead letters aside): the end of a drain. */
  static final String ALGUM_PENDENTE =
      """
      SELECT EXISTS (
        SELECT 1 FROM outbox o
         WHERE o.enviado_em IS NULL
           AND NOT EXISTS (
                 SELECT 1 FROM publicador_mortos m
                  WHERE m.tabela = 'outbox' AND m.republicado_em IS NULL
                    AND m.chave = jsonb_build_object('pedido_id', o.pedido_id, 'efeito', o.efeito)))
      """;

  /** How often the drain sends its second's worth; the rate is per this period. */
  static final Duration PASSO_DO_ESVAZIAMENTO = Duration.ofSeconds(1);

  /** The command's per-row lines have no reader here: the summary is logged. */
  private static final java.io.PrintStream SEM_SAIDA =
      new java.io.PrintStream(java.io.OutputStream.nullOutputStream());

  static final String PENDENCIAS =
      """
      SELECT count(*) AS pendentes, min(criado_em) AS mais_antigo
        FROM outbox
       WHERE enviado_em IS NULL
      """;

  /**
   * How far the slot is behind the WAL, in bytes: one row of a catalog view, whatever the tables
   * hold. Readable by any role; NULL on a slot that never confirmed a position.
   */
  static final String ATRASO_DO_SLOT =
      """
      SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::bigint AS atraso
        FROM pg_replication_slots
       WHERE slot_name = :slot
      """;

  private final JdbcClient jdbc;
  private final FormatoDasMensagens formato;
  private final EnviadorDeMensagens enviador;
  private final RegistroDeEnvios registro;
  private final RegistroDeMortos mortos;
  private final RepublicacaoDosMortos republicacao;
  private final SupervisorDoPublicador supervisor;
  private final MetricasDoPublicador metricas;
  private final PublicadorProperties.Reenvio configuracao;
  private final boolean transmitir;
  private final String slot;
  private final Clock clock;
  private final EntregaDosEfeitos entrega;
  private final int efeitosPorSegundo;

  ReenvioDoOutbox(
      JdbcClient jdbc,
      FormatoDasMensagens formato,
      EnviadorDeMensagens enviador,
      RegistroDeEnvios registro,
      RegistroDeMortos mortos,
      RepublicacaoDosMortos republicacao,
      SupervisorDoPublicador supervisor,
      MetricasDoPublicador metricas,
      PublicadorProperties propriedades,
      Clock clock,
      EntregaDosEfeitos entrega) {
    this.jdbc = jdbc;
    this.formato = formato;
    this.enviador = enviador;
    this.registro = registro;
    this.mortos = mortos;
    this.republicacao = republicacao;
    this.supervisor = supervisor;
    this.metricas = metricas;
    this.configuracao = propriedades.reenvio();
    this.transmitir = propriedades.transmitir();
    this.slot = propriedades.slot();
    this.clock = clock;
    this.entrega = entrega;
    this.efeitosPorSegundo = propriedades.entrega().efeitosPorSegundo();
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar agenda) {
    if (transmitir) {
      agenda.addFixedDelayTask(this::executar, configuracao.intervalo());
      // Fixed delay: a second passes between the end of one step and the start of the next, so
      // no second ever sees more than one step's worth.
      agenda.addFixedDelayTask(this::esvaziar, PASSO_DO_ESVAZIAMENTO);
    }
  }

  void executar() {
    try {
      atualizarPendencias();
      if (supervisor.podePublicar()) {
        // Paused or draining: the drain alone sends effects, in its order and at its pace.
        if (entrega.modo() == ModoDaEntrega.AO_VIVO) {
          int reenviadas = reenviar();
          if (reenviadas > 0) {
            log.warn("Re-sent {} outbox rows the stream had not delivered", reenviadas);
          }
        }
        RepublicacaoDosMortos.Resumo pedidas =
            republicacao.executarPedidas(SEM_SAIDA, entrega.modo() == ModoDaEntrega.AO_VIVO);
        if (pedidas.republicadas() + pedidas.aindaMortas() + pedidas.semLinha() > 0) {
          log.info(
              "Dead letters an operator asked to re-publish: re-published {}, still failing {},"
                  + " row gone {}",
              pedidas.republicadas(),
              pedidas.aindaMortas(),
              pedidas.semLinha());
        }
      }
    } catch (FalhaAoPublicarException | org.springframework.dao.DataAccessException e) {
      // Kafka or the database is down: the engine reports it too; the next run tries again.
      log.warn("Outbox fallback failed: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Sends the stale rows in batches until none is left, or delivery is paused; returns how many
   * were sent. A row that cannot be encoded or that Kafka refuses for good is dead-lettered
   * (committed before its batch's rows are marked sent) and skipped from then on.
   */
  int reenviar() throws InterruptedException {
    int total = 0;
    // Read afresh before each batch: the periodic read shares this thread, so a long round would
    // otherwise keep a pause from taking effect, here and in the stream, until it ends.
    while (entrega.atualizar().modo() == ModoDaEntrega.AO_VIVO) {
      Lote lote =
          enviarLote(
              jdbc.sql(PENDENTES_ANTIGOS)
                  .param("idade", configuracao.idade().toMillis() / 1000.0)
                  .param("lote", configuracao.lote()),
              () -> false);
      total += lote.enviadas();
      if (lote.lidas() < configuracao.lote()) {
        return total;
      }
    }
    return total;
  }

  /**
   * One step of the drain after a resume: at most {@code efeitosPorSegundo} of the backlog, in
   * order; when it is all sent, delivery goes back to the stream.
   */
  void esvaziar() {
    try {
      if (entrega.modo() != ModoDaEntrega.ESVAZIANDO || !supervisor.podePublicar()) {
        return;
      }
      int orcamento = efeitosPorSegundo;
      while (orcamento > 0 && entrega.atualizar().modo() == ModoDaEntrega.ESVAZIANDO) {
        int pedidas = Math.min(orcamento, configuracao.lote());
        Lote lote =
            enviarLote(
                jdbc.sql(PENDENTES_EM_ORDEM).param("lote", pedidas),
                () -> entrega.modo() != ModoDaEntrega.ESVAZIANDO);
        orcamento -= lote.lidas();
        if (lote.lidas() < pedidas) {
          // All of the backlog this step could see is sent: back to the stream, if nothing came
          // meanwhile (EntregaDosEfeitos: under the lock the stream's batches decide under).
          entrega.aoVivoSeNadaPendente(
              () -> !jdbc.sql(ALGUM_PENDENTE).query(Boolean.class).single());
          return;
        }
      }
    } catch (FalhaAoPublicarException | org.springframework.dao.DataAccessException e) {
      // Kafka or the database is down: the engine reports it too; the next step tries again.
      log.warn("Draining the outbox failed: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** What one batch read ({@code lidas}, dead-lettered ones included) and sent. */
  private record Lote(int lidas, int enviadas) {}

  /**
   * Sends the rows a query reads, in its order, and marks them sent; the rows that cannot be
   * encoded or that Kafka refuses for good are dead-lettered first.
   *
   * @param parar checked while waiting for Kafka: true abandons the batch unacknowledged (sent
   *     again later, never marked)
   */
  private Lote enviarLote(
      JdbcClient.StatementSpec consulta, java.util.function.BooleanSupplier parar)
      throws InterruptedException {
    List<Morto> ilegiveis = new ArrayList<>();
    List<Mensagem> lote = new ArrayList<>();
    consulta
        .query(
            (linha, n) -> {
              ChaveDoEfeito chave =
                  new ChaveDoEfeito(linha.getString("pedido_id"), linha.getString("efeito"));
              try {
                lote.add(
                    formato.doEfeito(
                        chave,
                        linha.getString("status"),
                        linha.getObject("total_centavos", Long.class),
                        linha.getTimestamp("criado_em").toInstant(),
                        null,
                        null));
              } catch (RuntimeException e) {
                if (FalhasDaLinha.daLinha(e) == null) {
                  throw e;
                }
                ilegiveis.add(Morto.de(new OrigemDaLinha(Tabela.OUTBOX, chave.json(), null), e));
              }
              return null;
            })
        .list();
    if (lote.isEmpty() && ilegiveis.isEmpty()) {
      return new Lote(0, 0);
    }
    List<Morto> recusadas =
        enviador.enviarTodas(
            lote,
            Via.REENVIO,
            () -> !supervisor.isRunning() || !supervisor.podePublicar() || parar.getAsBoolean());
    mortos.registrar(ilegiveis, Via.REENVIO);
    mortos.registrar(recusadas, Via.REENVIO);
    registro.marcar(
        lote.stream()
            .filter(m -> recusadas.stream().noneMatch(r -> r.origem() == m.origem()))
            .map(Mensagem::efeito)
            .toList());
    return new Lote(lote.size() + ilegiveis.size(), lote.size() - recusadas.size());
  }

  private void atualizarPendencias() {
    metricas.mortosAbertos(mortos.abertos());
    metricas.atrasoDoSlot(
        jdbc.sql(ATRASO_DO_SLOT)
            .param("slot", slot)
            .query((linha, n) -> linha.getObject("atraso", Long.class))
            .optional()
            .orElse(null));
    jdbc.sql(PENDENCIAS)
        .query(
            (linha, n) -> {
              Timestamp maisAntigo = linha.getTimestamp("mais_antigo");
              metricas.pendencias(
                  linha.getLong("pendentes"),
                  maisAntigo == null
                      ? Duration.ZERO
                      : Duration.between(maisAntigo.toInstant(), clock.instant()));
              return null;
            })
        .list();
  }
}
