package pedidos.aplicador.painel;

import java.time.OffsetDateTime;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Re-publishes one effect to the picking system: its {@code enviado_em} is cleared, and the relay's
 * fallback (which re-sends unsent outbox rows older than {@code publicador.reenvio.idade}) sends it
 * again from the table and marks it sent. The applier never writes the relay's topics (it has no
 * ACL for them); clearing one column is all its role may do to the outbox row (V13).
 *
 * <p>A row that is not sent yet is already queued: asking again changes nothing. The picking system
 * receives the effect again with the same key {@code (pedido_id, efeito)} and its snapshot, as it
 * may after any relay failover.
 */
@Component
class RepublicacaoDeEfeito {

  static final String REENVIAR =
      """
      UPDATE outbox SET enviado_em = NULL
       WHERE pedido_id = :pedido AND efeito = :efeito AND enviado_em IS NOT NULL
      RETURNING criado_em
      """;

  static final String SITUACAO =
      """
      SELECT o.criado_em,
             EXISTS (SELECT 1 FROM publicador_mortos m
                      WHERE m.tabela = 'outbox' AND m.republicado_em IS NULL
                        AND m.chave = jsonb_build_object('pedido_id', o.pedido_id, 'efeito', o.efeito))
               AS morto
        FROM outbox o
       WHERE o.pedido_id = :pedido AND o.efeito = :efeito
      """;

  private final JdbcClient jdbc;

  RepublicacaoDeEfeito(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  Desfecho republicar(String pedidoId, String efeito) {
    var reenviado =
        jdbc.sql(REENVIAR)
            .param("pedido", pedidoId)
            .param("efeito", efeito)
            .query(OffsetDateTime.class)
            .optional();
    if (reenviado.isPresent()) {
      return Desfecho.feito(
          efeito
              + " (born "
              + reenviado.get()
              + ") marked unsent: the relay's fallback publishes it again",
          pedidoId);
    }
    record Situacao(OffsetDateTime criadoEm, boolean morto) {}
    var situacao =
        jdbc.sql(SITUACAO)
            .param("pedido", pedidoId)
            .param("efeito", efeito)
            .query((rs, n) -> new Situacao(rs.getObject(1, OffsetDateTime.class), rs.getBoolean(2)))
            .optional();
    if (situacao.isEmpty()) {
      return Desfecho.recusado("the outbox holds no " + efeito + " of order " + pedidoId, pedidoId);
    }
    if (situacao.get().morto()) {
      return Desfecho.nadaAFazer(
          efeito + " is unsent and dead-lettered by the relay: re-publish its dead letter instead",
          pedidoId);
    }
    return Desfecho.nadaAFazer(
        efeito + " is not sent yet: the relay (or its fallback) publishes it already", pedidoId);
  }
}
