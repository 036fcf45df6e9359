package pedidos.aplicador.entrega;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Pausing and resuming delivery to the picking system ({@code separacao.efeitos}): the one row of
 * {@code entrega_dos_efeitos} (V16), which every relay reads (publicador-outbox, README "Pausing
 * delivery"). The applier has no ACL on the relay's topics: it only records what operators ask, as
 * it does for a dead letter's re-publication.
 *
 * <p>Each change and its audit row ({@code operacoes_auditadas}) commit in one transaction, so the
 * audit says exactly what was done, from the ops page or from the command line. Idempotent: pausing
 * a paused delivery (or resuming a live one) changes nothing and is audited as {@code
 * nada_a_fazer}.
 */
public final class PausaDaEntrega {

  /** The audit's {@code acao} values. */
  public static final String PAUSAR = "pausar_entrega";

  public static final String RETOMAR = "retomar_entrega";

  /** What the audit names as the target: the topic whose delivery is paused. */
  public static final String ALVO = "separacao.efeitos";

  /** The longest reason kept; an operator's note, not a document. */
  public static final int MOTIVO_MAXIMO = 500;

  /** Past this many unsent effects the page says "at least" instead of counting further. */
  public static final int CONTAGEM_ATE = 100_000;

  static final String PAUSAR_SQL =
      """
      UPDATE entrega_dos_efeitos
         SET pausada = true, pausada_em = now(), pausada_por = :operador, motivo = :motivo
       WHERE NOT pausada
      """;

  // A resume starts a drain: the relay sends the backlog at its pace, then marks it drained.
  static final String RETOMAR_SQL =
      """
      UPDATE entrega_dos_efeitos
         SET pausada = false, retomada_em = now(), retomada_por = :operador, esvaziada_em = NULL
       WHERE pausada
      """;

  // In the change's transaction (the controller's refusals are audited apart, by the page).
  static final String AUDITAR =
      """
      INSERT INTO operacoes_auditadas (operador, acao, alvo, resultado, detalhe)
      VALUES (:operador, :acao, :alvo, :resultado, :detalhe)
      """;

  public static final String LER =
      """
      SELECT pausada, pausada_em, pausada_por, motivo, retomada_em, retomada_por, esvaziada_em
        FROM entrega_dos_efeitos
      """;

  /**
   * The backlog, from the partial index of unsent rows (V4): counted up to a bound (a pause of
   * hours holds hundreds of thousands), the oldest from the index's first entry. The status page's
   * queries are planned in PlanosDoPainelTest.
   */
  public static final String PENDENCIAS =
      """
      SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox WHERE enviado_em IS NULL LIMIT\s"""
          + CONTAGEM_ATE
          + """
      ) AS p) AS pendentes,
             (SELECT min(criado_em) FROM outbox WHERE enviado_em IS NULL) AS mais_antigo,
             now() AS agora
      """;

  /**
   * How it ended.
   *
   * @param resultado {@code feito} or {@code nada_a_fazer}, as the audit has it
   */
  public record Mudanca(String resultado, String detalhe) {}

  /**
   * The state and the backlog.
   *
   * @param modo {@code pausada}, {@code esvaziando} (resumed, the relay still sends the backlog at
   *     its pace) or {@code ao_vivo}
   * @param pendentes unsent effects, at most {@link #CONTAGEM_ATE} (then {@code pendentesAoMenos})
   * @param idadeDoMaisAntigo seconds since the oldest unsent effect was born; null when none
   */
  public record Situacao(
      String modo,
      OffsetDateTime pausadaEm,
      String pausadaPor,
      String motivo,
      OffsetDateTime retomadaEm,
      String retomadaPor,
      OffsetDateTime esvaziadaEm,
      long pendentes,
      boolean pendentesAoMenos,
      Double idadeDoMaisAntigo) {}

  private final JdbcClient jdbc;
  private final TransactionTemplate transacao;

  public PausaDaEntrega(JdbcClient jdbc, TransactionTemplate transacao) {
    this.jdbc = jdbc;
    this.transacao = transacao;
  }

  /**
   * @param via where it was asked ({@code page}, {@code command line}), for the audit
   * @throws IllegalArgumentException when the reason is missing or too long: nothing is changed
   */
  public Mudanca pausar(String operador, String motivo, String via) {
    String texto = motivo == null ? "" : motivo.strip();
    if (texto.isEmpty()) {
      throw new IllegalArgumentException(
          "say why delivery is paused (motivo): operators who find it paused read it");
    }
    if (texto.length() > MOTIVO_MAXIMO) {
      throw new IllegalArgumentException(
          "the reason has " + texto.length() + " characters; at most " + MOTIVO_MAXIMO);
    }
    return transacao.execute(
        status -> {
          int mudou =
              jdbc.sql(PAUSAR_SQL).param("operador", operador).param("motivo", texto).update();
          Mudanca mudanca;
          if (mudou == 1) {
            mudanca =
                new Mudanca(
                    "feito",
                    "delivery to separacao.efeitos paused ("
                        + via
                        + "): "
                        + texto
                        + "; effects stay in the outbox until it is resumed");
          } else {
            Situacao agora = ler(jdbc);
            mudanca =
                new Mudanca(
                    "nada_a_fazer",
                    "already paused since "
                        + agora.pausadaEm()
                        + " by "
                        + agora.pausadaPor()
                        + ": "
                        + agora.motivo());
          }
          auditar(operador, PAUSAR, mudanca);
          return mudanca;
        });
  }

  /**
   * @param via where it was asked, for the audit
   */
  public Mudanca retomar(String operador, String via) {
    return transacao.execute(
        status -> {
          int mudou = jdbc.sql(RETOMAR_SQL).param("operador", operador).update();
          Situacao agora = ler(jdbc);
          Mudanca mudanca =
              mudou == 1
                  ? new Mudanca(
                      "feito",
                      "delivery to separacao.efeitos resumed ("
                          + via
                          + "): the relay sends the backlog of "
                          + (agora.pendentesAoMenos() ? "at least " : "")
                          + agora.pendentes()
                          + " effect(s) at its configured pace, then goes live")
                  : new Mudanca("nada_a_fazer", "delivery is not paused (" + agora.modo() + ")");
          auditar(operador, RETOMAR, mudanca);
          return mudanca;
        });
  }

  /** The state and the backlog, read with the given client (the page reads on its own pool). */
  public static Situacao ler(JdbcClient jdbc) {
    record Pendencias(long pendentes, OffsetDateTime maisAntigo, OffsetDateTime agora) {}
    Pendencias pendencias =
        jdbc.sql(PENDENCIAS)
            .query(
                (rs, n) ->
                    new Pendencias(
                        rs.getLong("pendentes"),
                        rs.getObject("mais_antigo", OffsetDateTime.class),
                        rs.getObject("agora", OffsetDateTime.class)))
            .single();
    Optional<Situacao> situacao =
        jdbc.sql(LER)
            .query(
                (rs, n) -> {
                  boolean pausada = rs.getBoolean("pausada");
                  OffsetDateTime retomadaEm = rs.getObject("retomada_em", OffsetDateTime.class);
                  OffsetDateTime esvaziadaEm = rs.getObject("esvaziada_em", OffsetDateTime.class);
                  String modo =
                      pausada
                          ? "pausada"
                          : retomadaEm != null && esvaziadaEm == null ? "esvaziando" : "ao_vivo";
                  return new Situacao(
                      modo,
                      rs.getObject("pausada_em", OffsetDateTime.class),
                      rs.getString("pausada_por"),
                      rs.getString("motivo"),
                      retomadaEm,
                      rs.getString("retomada_por"),
                      esvaziadaEm,
                      Math.min(pendencias.pendentes(), CONTAGEM_ATE),
                      pendencias.pendentes() >= CONTAGEM_ATE,
                      pendencias.maisAntigo() == null
                          ? null
                          : Duration.between(
                                      pendencias.maisAntigo().toInstant(),
                                      pendencias.agora().toInstant())
                                  .toMillis()
                              / 1000.0);
                })
            .optional();
    return situacao.orElseThrow(
        () -> new IllegalStateException("entrega_dos_efeitos has no row: is the schema at V16?"));
  }

  private void auditar(String operador, String acao, Mudanca mudanca) {
    jdbc.sql(AUDITAR)
        .param("operador", operador)
        .param("acao", acao)
        .param("alvo", ALVO)
        .param("resultado", mudanca.resultado())
        .param("detalhe", mudanca.detalhe())
        .update();
  }
}
