package pedidos.aplicador.configuracao;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;
import pedidos.contrato.TopicosDoKafka;
import pedidos.gestao.Ops;

/**
 * The applier's settings.
 *
 * @param topico the topic of stored events the relay fills
 * @param topicoDeDescarte where records that can never be applied go, with the reason
 * @param topicos what this service needs of its topics, which the relay owns; checked at start
 * @param grupo the listener's consumer group
 * @param concorrencia listener threads; more than the partitions would idle
 * @param eventosPorTransacao how many records of one poll the listener applies in one transaction,
 *     at most: one commit (and one flush of the WAL) for them all; each holds its order's advisory
 *     lock until that commit, so the server's lock table bounds it
 * @param esperaPorLock how long an apply waits for a lock before failing as transient
 * @param tentativasDeFalhaDesconhecida attempts of a record that fails in an unknown way before it
 *     goes to the dead-letter topic; transient failures are retried without limit
 * @param esperaMaximaEntreTentativas the ceiling of the back-off between retries
 * @param tarefasPeriodicas whether the sweep, reconciliation and retention run (off for the replay
 *     command)
 * @param ops who may read the status page, its JSON and the actuator beyond health status;
 *     required, but checked when the web server starts ({@link
 *     pedidos.aplicador.painel.SegurancaDasOperacoes}), not here: the replay command needs none
 * @param painel how the status page's queries run
 * @param retencao how long personal data is kept, and how the job that removes it runs
 * @param rederivacaoEmMassa how bulk re-derivation jobs run
 * @param assinatura the keys the relay signs {@code loja.eventos} records with ({@code
 *     PEDIDOS_KAFKA_ASSINATURA}, comma-separated; any one verifies, so a new key can be added here
 *     before the relay signs with it); required, each at least 32 bytes, checked at start-up
 */
@Validated
@ConfigurationProperties("aplicador")
public record AplicadorProperties(
    @DefaultValue(TopicosDoKafka.EVENTOS) @NotBlank String topico,
    @DefaultValue(TopicosDoKafka.DESCARTE) @NotBlank String topicoDeDescarte,
    @DefaultValue @Valid Topicos topicos,
    @DefaultValue(TopicosDoKafka.GRUPO_DO_APLICADOR) @NotBlank String grupo,
    @DefaultValue("3") @Min(1) int concorrencia,
    @DefaultValue("50") @Min(1) @Max(500) int eventosPorTransacao,
    @DefaultValue("5s") @NotNull Duration esperaPorLock,
    @DefaultValue("5") @Min(1) int tentativasDeFalhaDesconhecida,
    @DefaultValue("30s") @NotNull Duration esperaMaximaEntreTentativas,
    @DefaultValue("true") boolean tarefasPeriodicas,
    @DefaultValue @Valid Varredura varredura,
    @DefaultValue @Valid Reconciliacao reconciliacao,
    @DefaultValue Ops ops,
    @DefaultValue @Valid Painel painel,
    @DefaultValue @Valid Retencao retencao,
    @DefaultValue @Valid RederivacaoEmMassa rederivacaoEmMassa,
    List<String> assinatura) {

  public AplicadorProperties {
    rederivacaoEmMassa =
        rederivacaoEmMassa == null ? RederivacaoEmMassa.PADRAO : rederivacaoEmMassa;
    assinatura = assinatura == null ? List.of() : List.copyOf(assinatura);
  }

  /** Every field but the signing keys, which must never reach a log. */
  @Override
  public String toString() {
    return "AplicadorProperties[topico=%s, topicoDeDescarte=%s, topicos=%s, grupo=%s, concorrencia=%d, eventosPorTransacao=%d, esperaPorLock=%s, tentativasDeFalhaDesconhecida=%d, esperaMaximaEntreTentativas=%s, tarefasPeriodicas=%s, varredura=%s, reconciliacao=%s, ops=%s, painel=%s, retencao=%s, rederivacaoEmMassa=%s, assinatura=%d key(s)]"
        .formatted(
            topico,
            topicoDeDescarte,
            topicos,
            grupo,
            concorrencia,
            eventosPorTransacao,
            esperaPorLock,
            tentativasDeFalhaDesconhecida,
            esperaMaximaEntreTentativas,
            tarefasPeriodicas,
            varredura,
            reconciliacao,
            ops,
            painel,
            retencao,
            rederivacaoEmMassa,
            assinatura.size());
  }

  /**
   * What the applier needs of {@code loja.eventos} and its dead-letter topic. The relay owns both
   * (it creates them and corrects their settings at its start, from {@code publicador.topicos.*});
   * this service only checks them before its listener reads ({@link
   * pedidos.aplicador.ouvinte.VerificacaoDosTopicos}) and refuses to start on what it cannot live
   * with.
   *
   * @param particoes the fewest partitions {@code loja.eventos} may have: at least the listener
   *     threads of every applier of the deployment (instances × {@code concorrencia}), and what the
   *     relay is told to make ({@code publicador.topicos.particoes})
   * @param janelaDeReplay how far back the replay command must reach (README, "Operations
   *     runbook"): {@code loja.eventos} must keep its records at least this long
   * @param espera how long the start waits for the relay to create or correct the topics before
   *     refusing; services start in any order
   * @param intervalo between two checks while waiting
   */
  public record Topicos(
      @DefaultValue("" + TopicosDoKafka.PARTICOES) @Min(1) int particoes,
      @NotNull @DurationMin(hours = 1) Duration janelaDeReplay,
      @DefaultValue("2m") @NotNull Duration espera,
      @DefaultValue("5s") @NotNull @DurationMin(millis = 1) Duration intervalo) {

    public Topicos {
      // The contract's window, which the relay's retention of loja.eventos defaults to as well.
      janelaDeReplay = janelaDeReplay == null ? TopicosDoKafka.JANELA_DE_REPLAY : janelaDeReplay;
    }
  }

  /**
   * The status page's queries: on a pool of their own, so a flood of page loads never takes a
   * connection an apply needs, and cached, so it causes at most one round of queries per period.
   *
   * @param cache how long one round of queries serves every page load
   * @param conexoes connections of the panel's own pool
   * @param tempoLimite statement timeout of those connections; a slow query fails the page, never
   *     holds a connection for long
   */
  public record Painel(
      @DefaultValue("5s") @NotNull Duration cache,
      @DefaultValue("2") @Min(1) int conexoes,
      @DefaultValue("5s") @NotNull Duration tempoLimite) {}

  /**
   * The retention job ({@link Retencao}): personal data is kept no longer than these periods, while
   * what deduplication, the fold and replay read stays (README, "Data lifecycle").
   *
   * @param ligada whether the job runs (every instance may run it: batches skip each other's rows)
   * @param caixaDeEntrada payloads of applied inbox events received longer ago are reduced to what
   *     the fold reads
   * @param quarentena quarantined bodies last received longer ago are deleted
   * @param outbox sent outbox rows sent longer ago are deleted (those of an order still open: the
   *     {@code liberar_separacao} key is kept, its email cleared)
   * @param lote rows per batch: one short transaction each
   * @param intervalo the pause between runs; a run goes on batch after batch until nothing is left
   * @param pausaEntreLotes a pause between batches, so that a run leaves the database to the
   *     receptor's inserts and the applies (its effect is measured in docs/BENCHMARKS.md)
   */
  public record Retencao(
      @DefaultValue("true") boolean ligada,
      @DefaultValue("30d") @NotNull Duration caixaDeEntrada,
      @DefaultValue("30d") @NotNull Duration quarentena,
      @DefaultValue("30d") @NotNull Duration outbox,
      @DefaultValue("500") @Min(1) @Max(10_000) int lote,
      @DefaultValue("1h") @NotNull Duration intervalo,
      @DefaultValue("100ms") @NotNull Duration pausaEntreLotes) {

    /** No period may be shorter: a value written without its unit is read as milliseconds. */
    static final Duration MINIMO = Duration.ofDays(1);

    public Retencao {
      exigirMinimo("caixa-de-entrada", caixaDeEntrada);
      exigirMinimo("quarentena", quarentena);
      exigirMinimo("outbox", outbox);
      // Also checked here: the reter command binds these without the service's validator.
      if (lote < 1 || lote > 10_000) {
        throw new IllegalArgumentException(
            "aplicador.retencao.lote is " + lote + ": it must be from 1 to 10000");
      }
    }

    private static void exigirMinimo(String nome, Duration periodo) {
      if (periodo != null && periodo.compareTo(MINIMO) < 0) {
        throw new IllegalArgumentException(
            "aplicador.retencao."
                + nome
                + " is "
                + periodo
                + ": it must be at least 1 day (write the unit: 30d)");
      }
    }
  }

  /**
   * @param idade events pending longer than this are applied from the inbox, without Kafka
   * @param intervalo the pause between rounds
   * @param lote events per round
   */
  public record Varredura(
      @DefaultValue("30s") @NotNull Duration idade,
      @DefaultValue("5s") @NotNull Duration intervalo,
      @DefaultValue("200") @Min(1) int lote) {}

  /**
   * Reading the provider's orders API ({@code LOJA_API_URL}, {@code LOJA_API_TOKEN}, {@code
   * LOJA_RECONCILIACAO_INTERVALO}).
   *
   * @param url the API's base URL; blank turns reconciliation off
   * @param sobreposicao how far before the cursor each round reads again, for orders updated while
   *     the previous round was reading
   * @param limite orders per page
   * @param timeout connect timeout of each request, and of each read of its answer
   * @param paginasPorRodada the most pages past the cursor one round reads; the next round goes on
   *     from the cursor, so a long backlog never keeps a round (and its lock) going for hours. The
   *     overlap's pages do not count, so every round moves the cursor on, however many orders
   *     changed within the overlap
   * @param margem the cursor never moves past now minus this: orders updated since then are read
   *     again by the next round, and an order dated in the future cannot carry the cursor past
   *     orders not yet read
   */
  public record Reconciliacao(
      @DefaultValue("") String url,
      @DefaultValue("") String token,
      @DefaultValue("5m") @NotNull Duration intervalo,
      @DefaultValue("1m") @NotNull Duration sobreposicao,
      @DefaultValue("100") @Min(1) int limite,
      @DefaultValue("10s") @NotNull Duration timeout,
      @DefaultValue("50") @Min(1) int paginasPorRodada,
      @DefaultValue("1m") @NotNull Duration margem) {

    public boolean ligada() {
      return url != null && !url.isBlank();
    }
  }

  /**
   * Bulk re-derivation jobs (docs/operacoes.md, "Re-deriving many orders"): a dry run, then the
   * run, on whichever instance holds the jobs' lease.
   *
   * @param executor whether this instance runs jobs, with its periodic work ({@code
   *     tarefas-periodicas}); the command runs its job in the foreground
   * @param pedidosPorSegundo the most orders per second any job re-derives, so the live pipeline
   *     keeps its latency; a job may ask for fewer
   * @param intervalo how often an idle instance looks for a job to run
   * @param maximoDePedidos the largest set a job may take; a wider filter is refused
   * @param mudancasGuardadas changes kept per job and phase (before and after), shown on the page
   */
  public record RederivacaoEmMassa(
      @DefaultValue("true") boolean executor,
      @DefaultValue("20") @Min(1) @Max(1000) int pedidosPorSegundo,
      @DefaultValue("5s") @NotNull Duration intervalo,
      @DefaultValue("100000") @Min(1) int maximoDePedidos,
      @DefaultValue("200") @Min(0) int mudancasGuardadas) {

    static final RederivacaoEmMassa PADRAO =
        new RederivacaoEmMassa(true, 20, Duration.ofSeconds(5), 100_000, 200);
  }
}
