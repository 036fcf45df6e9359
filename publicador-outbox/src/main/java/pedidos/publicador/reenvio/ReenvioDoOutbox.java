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
 */
@Component
class ReenvioDoOutbox implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(ReenvioDoOutbox.class);

  // Dead-lettered rows are left out until re-published: one row Kafka refuses for good must not be
  // re-sent every interval forever, nor hold back the rows behind it in each batch.
  static final String PENDENTES_ANTIGOS =
      """
      SELECT o.pedido_id, o.efeito, o.status, o.total_centavos, o.criado_em
        FROM outbox o
       WHERE o.enviado_em IS NULL AND o.criado_em < now() - make_interval(secs => :idade)
         AND NOT EXISTS (
               SELECT 1 FROM publicador_mortos m
                WHERE m.tabela = 'outbox' AND m.republicado_em IS NULL
                  AND m.chave = jsonb_build_object('pedido_id', o.pedido_id, 'efeito', o.efeito))
       ORDER BY o.criado_em
       LIMIT :lote
      """;

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
      Clock clock) {
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
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar agenda) {
    if (transmitir) {
      agenda.addFixedDelayTask(this::executar, configuracao.intervalo());
    }
  }

  void executar() {
    try {
      atualizarPendencias();
      if (supervisor.podePublicar()) {
        int reenviadas = reenviar();
        if (reenviadas > 0) {
          log.warn("Re-sent {} outbox rows the stream had not delivered", reenviadas);
        }
        RepublicacaoDosMortos.Resumo pedidas = republicacao.executarPedidas(SEM_SAIDA);
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
   * Sends the stale rows in batches until none is left; returns how many were sent. A row that
   * cannot be encoded or that Kafka refuses for good is dead-lettered (committed before its batch's
   * rows are marked sent) and skipped from then on.
   */
  int reenviar() throws InterruptedException {
    int total = 0;
    while (true) {
      List<Morto> ilegiveis = new ArrayList<>();
      List<Mensagem> lote = new ArrayList<>();
      jdbc.sql(PENDENTES_ANTIGOS)
          .param("idade", configuracao.idade().toMillis() / 1000.0)
          .param("lote", configuracao.lote())
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
        return total;
      }
      List<Morto> recusadas =
          enviador.enviarTodas(
              lote, Via.REENVIO, () -> !supervisor.isRunning() || !supervisor.podePublicar());
      mortos.registrar(ilegiveis, Via.REENVIO);
      mortos.registrar(recusadas, Via.REENVIO);
      registro.marcar(
          lote.stream()
              .filter(m -> recusadas.stream().noneMatch(r -> r.origem() == m.origem()))
              .map(Mensagem::efeito)
              .toList());
      int enviadas = lote.size() - recusadas.size();
      total += enviadas;
      if (lote.size() + ilegiveis.size() < configuracao.lote()) {
        return total;
      }
    }
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
