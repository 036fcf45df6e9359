package pedidos.aplicador.aplicacao;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import pedidos.dominio.EventoGravado;
import pedidos.dominio.Fato;
import pedidos.dominio.VersaoDoFato;

/**
 * Lost webhooks ({@code webhook_nao_entregue}, table {@code webhooks_nao_entregues}, V15): a fact
 * that reconciliation read from the store's API and that no webhook delivered, and whether its
 * webhook came later (late, not lost).
 *
 * <p>Both sides are judged inside the apply, under the order's lock, so that they always see each
 * other: the first apply of an API fact looks for a webhook of the same order, status and version
 * in the inbox (applied or still pending) and records the fact when there is none; the first apply
 * of a webhook marks such a record when the order's applied facts include its API twin. A webhook
 * that came first is thus never recorded, and one that comes after is always marked. The webhook
 * path pays nothing unless an API fact of the same version is already applied: only then does it
 * write.
 */
final class WebhooksNaoEntregues {

  /** The order's stored events, pending ones too: a webhook stored but not yet applied came. */
  static final String EVENTOS_DO_PEDIDO =
      """
      SELECT evento_id, tipo, payload::text AS payload, recebido_em,
             CASE WHEN evento_id = :eventoId THEN payload ->> 'updated_at' END AS atualizado_em,
             CASE WHEN evento_id = :eventoId AND jsonb_typeof(payload -> 'sequence') = 'number'
                  THEN payload ->> 'sequence' END AS sequencia
        FROM webhook_eventos
       WHERE recurso_id = :pedido
      """;

  static final String REGISTRAR =
      """
      INSERT INTO webhooks_nao_entregues
             (evento_id, pedido_id, tipo, versao, sequencia, fato_em, revelado_em)
      VALUES (:eventoId, :pedido, :tipo, :versao, :sequencia, :fatoEm, :reveladoEm)
      ON CONFLICT (evento_id) DO NOTHING
      """;

  static final String MARCAR_ATRASADO =
      """
      UPDATE webhooks_nao_entregues n
         SET webhook_evento_id = e.evento_id, webhook_recebido_em = e.recebido_em
        FROM webhook_eventos e
       WHERE e.evento_id = :webhook
         AND n.evento_id = ANY(CAST(:apis AS text[]))
         AND n.webhook_evento_id IS NULL
      """;

  private final JdbcClient jdbc;
  private final MetricasDoAplicador metricas;
  private final LeitorDeEventos leitor = new LeitorDeEventos();

  WebhooksNaoEntregues(JdbcClient jdbc, MetricasDoAplicador metricas) {
    this.jdbc = jdbc;
    this.metricas = metricas;
  }

  static boolean daApi(String eventoId) {
    return eventoId.startsWith("api:");
  }

  /**
   * Called by the apply of {@code evento}, under its order's lock, before it writes. Only a first
   * apply is judged: a re-derivation or a replay does not count a fact twice.
   *
   * @param outros the order's facts applied so far
   */
  void julgar(String pedidoId, EventoGravado evento, List<EventoGravado> outros) {
    if (evento.aplicado() || !(evento.interpretacao() instanceof Fato fato)) {
      return;
    }
    if (daApi(evento.eventoId())) {
      registrarSeNenhumWebhook(pedidoId, fato);
    } else {
      marcarSeAtrasado(fato, outros);
    }
  }

  private void registrarSeNenhumWebhook(String pedidoId, Fato fato) {
    record Linha(
        String eventoId,
        String tipo,
        String payload,
        OffsetDateTime recebidoEm,
        String atualizadoEm,
        String sequencia) {}
    List<Linha> linhas =
        jdbc.sql(EVENTOS_DO_PEDIDO)
            .param("eventoId", fato.eventoId())
            .param("pedido", pedidoId)
            .query(
                (rs, n) ->
                    new Linha(
                        rs.getString("evento_id"),
                        rs.getString("tipo"),
                        rs.getString("payload"),
                        rs.getObject("recebido_em", OffsetDateTime.class),
                        rs.getString("atualizado_em"),
                        rs.getString("sequencia")))
            .list();
    Linha propria = null;
    for (Linha linha : linhas) {
      if (linha.eventoId().equals(fato.eventoId())) {
        propria = linha;
      } else if (!daApi(linha.eventoId())
          && mesmoFato(fato, leitor.interpretar(linha.eventoId(), linha.tipo(), linha.payload()))) {
        return;
      }
    }
    if (propria == null) {
      return;
    }
    int gravadas =
        jdbc.sql(REGISTRAR)
            .param("eventoId", fato.eventoId())
            .param("pedido", pedidoId)
            .param("tipo", fato.status().tipoDoEvento())
            .param("versao", fato.versao())
            .param("sequencia", sequencia(propria.sequencia()))
            .param(
                "fatoEm",
                VersaoDoFato.lerInstante(propria.atualizadoEm())
                    .map(CaixaDeEntrada::instante)
                    .orElse(null))
            .param("reveladoEm", propria.recebidoEm())
            .update();
    if (gravadas == 1) {
      depoisDoCommit(metricas::webhookNaoEntregue);
    }
  }

  private void marcarSeAtrasado(Fato fato, List<EventoGravado> outros) {
    List<String> gemeos = new ArrayList<>();
    for (EventoGravado outro : outros) {
      if (daApi(outro.eventoId()) && mesmoFato(fato, outro.interpretacao())) {
        gemeos.add(outro.eventoId());
      }
    }
    if (gemeos.isEmpty()) {
      return;
    }
    int marcadas =
        jdbc.sql(MARCAR_ATRASADO)
            .param("webhook", fato.eventoId())
            .param("apis", gemeos.toArray(String[]::new))
            .update();
    if (marcadas > 0) {
      depoisDoCommit(() -> metricas.webhookAtrasado(marcadas));
    }
  }

  /** The same fact: the same status at the same version, whoever told it. */
  private static boolean mesmoFato(Fato fato, Object outro) {
    return outro instanceof Fato f && f.status() == fato.status() && f.versao() == fato.versao();
  }

  /** The API's sequence when it is a safe integer; otherwise the version came from its instant. */
  private static Long sequencia(String texto) {
    if (texto == null) {
      return null;
    }
    try {
      BigDecimal numero = new BigDecimal(texto);
      return VersaoDoFato.inteiroSeguro(numero) ? numero.longValueExact() : null;
    } catch (NumberFormatException | ArithmeticException e) {
      return null;
    }
  }

  /** Counted once the transaction commits: a rolled-back apply (retried later) counts nothing. */
  private static void depoisDoCommit(Runnable contar) {
    TransactionSynchronizationManager.registerSynchronization(
        new TransactionSynchronization() {
          @Override
          public void afterCommit() {
            contar.run();
          }
        });
  }
}
