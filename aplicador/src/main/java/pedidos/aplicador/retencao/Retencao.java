package pedidos.aplicador.retencao;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.contrato.MascaraDeEmail;

/**
 * The retention policy (README, "Data lifecycle"): payloads of applied inbox events are reduced to
 * what the fold reads, quarantined bodies and sent outbox rows are deleted, each once older than
 * its period ({@link AplicadorProperties.Retencao}).
 *
 * <p>Batch after batch, each a short transaction of its own that never waits: rows another instance
 * (or the relay, or an apply) holds are skipped ({@code SKIP LOCKED}) and left to the next batch or
 * run, so any number of instances may run it at once and none of them delays an apply for longer
 * than one batch. An inbox row is redacted only under its order's advisory lock, taken with {@code
 * pg_try_advisory_xact_lock} as the sweep does: the payload is what the fold reads, so it changes
 * only while no apply of the order runs, and the email the redacted payload keeps is read after
 * that lock, as the order's state was left by the last apply.
 */
@Component
public class Retencao {

  private static final Logger log = LoggerFactory.getLogger(Retencao.class);

  // Step one of an inbox batch: the oldest rows still to redact (the partial index
  // webhook_eventos_a_redigir holds exactly these), locked, and the order lock of each tried. The
  // CTE is materialized so that the lock is tried only on the rows the batch took.
  static final String TRAVAR_CORPOS_ANTIGOS =
      """
      WITH candidatos AS MATERIALIZED (
        SELECT evento_id, recurso_id
          FROM webhook_eventos
         WHERE recebido_em < :limite
           AND aplicado_em IS NOT NULL AND redigido_em IS NULL
           AND resultado <> 'falha_de_aplicacao'
         ORDER BY recebido_em
         LIMIT :lote
           FOR UPDATE SKIP LOCKED
      )
      SELECT evento_id, pg_try_advisory_xact_lock(hashtextextended(recurso_id, 0)) AS travado
        FROM candidatos
      """;

  // Step two, a statement of its own so that its snapshot comes after the order locks: the email in
  // force is the one the last apply of the order committed. The digest of the body as first stored
  // is kept (an erasure may have kept it already), so a redelivery is still a duplicate.
  static final String REDIGIR_CORPOS =
      """
      UPDATE webhook_eventos w
         SET payload_sha256 = COALESCE(w.payload_sha256, resumo_do_corpo(w.payload)),
             payload = payload_redigido(w.tipo, w.payload,
                         (SELECT p.cliente_email FROM pedidos p WHERE p.id = w.recurso_id)),
             redigido_em = now()
       WHERE w.evento_id = ANY (CAST(:ids AS text[]))
      """;

  // The applier may delete quarantined rows but not lock them (FOR UPDATE needs UPDATE, which it
  // does not hold): two instances taking the same rows wait for one short batch, and the outer
  // condition is checked again on a row a redelivery has just touched.
  static final String APAGAR_QUARENTENA =
      """
      DELETE FROM webhook_quarentena q
       WHERE q.id IN (SELECT id FROM webhook_quarentena
                       WHERE ultimo_recebimento_em < :limite
                       ORDER BY id
                       LIMIT :lote)
         AND q.ultimo_recebimento_em < :limite
      """;

  // Sent rows old enough (the partial index outbox_a_expurgar holds those still to look at). An
  // order in a terminal status stays terminal whatever facts come later, and from a terminal status
  // no effect it already had can be born again: its rows go. An order still open could be paid
  // again by a later fact (enviado -> pago at a newer version), and only its liberar_separacao key
  // stops a second release: that row stays, without the snapshot's email. (interromper_separacao
  // and notificar_reembolso only ever belong to terminal orders.)
  static final String EXPURGAR_OUTBOX =
      """
      WITH alvo AS MATERIALIZED (
        SELECT o.pedido_id, o.efeito, p.status IN ('cancelado', 'reembolsado') AS terminal
          FROM outbox o
          JOIN pedidos p ON p.id = o.pedido_id
         WHERE o.enviado_em IS NOT NULL AND o.enviado_em < :limite
           AND (o.cliente_email IS NOT NULL OR o.efeito <> 'liberar_separacao')
         ORDER BY o.enviado_em
         LIMIT :lote
           FOR UPDATE OF o SKIP LOCKED
      ), apagados AS (
        DELETE FROM outbox o
         USING alvo a
         WHERE a.terminal AND o.pedido_id = a.pedido_id AND o.efeito = a.efeito
        RETURNING 1
      ), limpos AS (
        UPDATE outbox o
           SET cliente_email = NULL
          FROM alvo a
         WHERE NOT a.terminal AND o.pedido_id = a.pedido_id AND o.efeito = a.efeito
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM alvo) AS candidatos,
             (SELECT count(*) FROM apagados) AS apagados,
             (SELECT count(*) FROM limpos) AS limpos
      """;

  private final JdbcClient jdbc;
  private final TransactionTemplate transacao;
  private final AplicadorProperties.Retencao propriedades;
  private final MetricasDoAplicador metricas;
  private final Clock relogio;

  @Autowired
  Retencao(
      JdbcClient jdbc,
      TransactionTemplate transacao,
      AplicadorProperties propriedades,
      MetricasDoAplicador metricas,
      Clock relogio) {
    this(jdbc, transacao, propriedades.retencao(), metricas, relogio);
  }

  /** For the {@code reter} command, which runs without the service's context. */
  public Retencao(
      JdbcClient jdbc,
      TransactionTemplate transacao,
      AplicadorProperties.Retencao propriedades,
      MetricasDoAplicador metricas,
      Clock relogio) {
    this.jdbc = jdbc;
    this.transacao = transacao;
    this.propriedades = propriedades;
    this.metricas = metricas;
    this.relogio = relogio;
  }

  /** The scheduled run: a failure is counted and logged, and the next run starts over. */
  public void executarAgendada() {
    try {
      ResumoDaRetencao resumo = executar();
      metricas.rodadaDeRetencao(true);
      if (resumo.linhas() > 0) {
        log.info(
            "retention: redacted {} inbox payloads, deleted {} quarantined bodies, deleted {} sent"
                + " outbox rows and cleared the email of {}, in {} batches, {} ms",
            resumo.corposRedigidos(),
            resumo.quarentenaApagada(),
            resumo.outboxApagado(),
            resumo.outboxEmailsRemovidos(),
            resumo.lotes(),
            resumo.nanos() / 1_000_000);
      }
    } catch (RuntimeException e) {
      metricas.rodadaDeRetencao(false);
      // A statement's error may quote a row: an email.
      log.error(
          "retention run failed; the next one starts over", MascaraDeEmail.mascararNaExcecao(e));
    }
  }

  /** One run: every table, batch after batch, until nothing older than its period is left. */
  public ResumoDaRetencao executar() {
    Instant agora = relogio.instant();
    var contagem = new Contagem();
    long inicio = System.nanoTime();
    repetir(
        "webhook_eventos",
        contagem,
        () -> redigirCorpos(limite(agora, propriedades.caixaDeEntrada())));
    repetir(
        "webhook_quarentena",
        contagem,
        () -> apagarQuarentena(limite(agora, propriedades.quarentena())));
    repetir("outbox", contagem, () -> expurgarOutbox(limite(agora, propriedades.outbox())));
    return new ResumoDaRetencao(
        contagem.corpos,
        contagem.quarentena,
        contagem.outboxApagado,
        contagem.outboxLimpo,
        contagem.lotes,
        System.nanoTime() - inicio,
        contagem.maiorLote);
  }

  private static OffsetDateTime limite(Instant agora, Duration periodo) {
    return OffsetDateTime.ofInstant(agora.minus(periodo), ZoneOffset.UTC);
  }

  /**
   * Batches of one table until one comes back short (nothing more is old enough, or the rest is
   * held by others) or changes nothing (every candidate is held: the next run tries them again).
   */
  private void repetir(String tabela, Contagem contagem, Supplier<Lote> lote) {
    while (!Thread.currentThread().isInterrupted()) {
      long inicio = System.nanoTime();
      Lote feito = lote.get();
      long nanos = System.nanoTime() - inicio;
      contagem.somar(feito, nanos);
      metricas.loteDeRetencao(tabela, nanos);
      if (feito.candidatos() < propriedades.lote() || feito.alterados() == 0) {
        return;
      }
      pausar();
    }
  }

  private void pausar() {
    if (propriedades.pausaEntreLotes().isZero()) {
      return;
    }
    try {
      Thread.sleep(propriedades.pausaEntreLotes().toMillis());
    } catch (InterruptedException e) {
      // The service is stopping: the run ends here, the next one goes on.
      Thread.currentThread().interrupt();
    }
  }

  private Lote redigirCorpos(OffsetDateTime limite) {
    Lote feito =
        transacao.execute(
            status -> {
              List<String> travados = new ArrayList<>();
              int[] candidatos = {0};
              jdbc.sql(TRAVAR_CORPOS_ANTIGOS)
                  .param("limite", limite)
                  .param("lote", propriedades.lote())
                  .query(
                      linha -> {
                        candidatos[0]++;
                        if (linha.getBoolean("travado")) {
                          travados.add(linha.getString("evento_id"));
                        }
                      });
              int redigidos =
                  travados.isEmpty()
                      ? 0
                      : jdbc.sql(REDIGIR_CORPOS)
                          .param("ids", travados.toArray(String[]::new))
                          .update();
              return new Lote(candidatos[0], redigidos, 0, 0, 0);
            });
    metricas.retencao("webhook_eventos", "redigida", feito.corpos());
    return feito;
  }

  private Lote apagarQuarentena(OffsetDateTime limite) {
    int apagados =
        jdbc.sql(APAGAR_QUARENTENA)
            .param("limite", limite)
            .param("lote", propriedades.lote())
            .update();
    metricas.retencao("webhook_quarentena", "apagada", apagados);
    return new Lote(apagados, 0, apagados, 0, 0);
  }

  private Lote expurgarOutbox(OffsetDateTime limite) {
    Lote feito =
        jdbc.sql(EXPURGAR_OUTBOX)
            .param("limite", limite)
            .param("lote", propriedades.lote())
            .query(
                (linha, n) ->
                    new Lote(
                        linha.getInt("candidatos"),
                        0,
                        0,
                        linha.getInt("apagados"),
                        linha.getInt("limpos")))
            .single();
    metricas.retencao("outbox", "apagada", feito.outboxApagado());
    metricas.retencao("outbox", "email_removido", feito.outboxLimpo());
    return feito;
  }

  /** One batch: how many rows it looked at, and what it did to them. */
  private record Lote(
      int candidatos, int corpos, int quarentena, int outboxApagado, int outboxLimpo) {
    int alterados() {
      return corpos + quarentena + outboxApagado + outboxLimpo;
    }
  }

  private static final class Contagem {
    long corpos;
    long quarentena;
    long outboxApagado;
    long outboxLimpo;
    long lotes;
    long maiorLote;

    void somar(Lote lote, long nanos) {
      corpos += lote.corpos();
      quarentena += lote.quarentena();
      outboxApagado += lote.outboxApagado();
      outboxLimpo += lote.outboxLimpo();
      lotes++;
      maiorLote = Math.max(maiorLote, nanos);
    }
  }
}
