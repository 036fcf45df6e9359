package pedidos.aplicador.painel;

import java.time.OffsetDateTime;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Asks the relay to re-publish one of its dead letters ({@code publicador_mortos}): the applier has
 * no ACL on the relay's topics and its role may only set {@code republicacao_pedida_em} (V13). The
 * relay, which owns the topics, re-publishes the requested letters and closes them ({@code
 * republicado_em}) as {@code republicar-mortos} does. Asking twice asks once.
 */
@Component
class RepublicacaoDeMorto {

  static final String PEDIR =
      """
      UPDATE publicador_mortos SET republicacao_pedida_em = now()
       WHERE id = :id AND republicado_em IS NULL AND republicacao_pedida_em IS NULL
      RETURNING tabela,
                coalesce(chave ->> 'pedido_id',
                         (SELECT recurso_id FROM webhook_eventos WHERE evento_id = chave ->> 'evento_id'))
                  AS pedido,
                chave::text AS chave
      """;

  static final String SITUACAO =
      """
      SELECT tabela,
             coalesce(chave ->> 'pedido_id',
                      (SELECT recurso_id FROM webhook_eventos WHERE evento_id = chave ->> 'evento_id'))
               AS pedido,
             chave::text AS chave, republicado_em,
             republicacao_pedida_em
        FROM publicador_mortos WHERE id = :id
      """;

  private final JdbcClient jdbc;

  RepublicacaoDeMorto(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  Desfecho pedir(long id) {
    record Pedido(String tabela, String pedidoId, String chave) {}
    var pedido =
        jdbc.sql(PEDIR)
            .param("id", id)
            .query((rs, n) -> new Pedido(rs.getString(1), rs.getString(2), rs.getString(3)))
            .optional();
    if (pedido.isPresent()) {
      return Desfecho.feito(
          "dead letter "
              + id
              + " ("
              + pedido.get().tabela()
              + " "
              + pedido.get().chave()
              + ") queued for the relay to re-publish",
          pedido.get().pedidoId());
    }
    record Situacao(
        String tabela,
        String pedidoId,
        String chave,
        OffsetDateTime republicadoEm,
        OffsetDateTime pedidaEm) {}
    var situacao =
        jdbc.sql(SITUACAO)
            .param("id", id)
            .query(
                (rs, n) ->
                    new Situacao(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getObject(4, OffsetDateTime.class),
                        rs.getObject(5, OffsetDateTime.class)))
            .optional();
    if (situacao.isEmpty()) {
      return Desfecho.recusado("no dead letter " + id, null);
    }
    Situacao s = situacao.get();
    if (s.republicadoEm() != null) {
      return Desfecho.nadaAFazer(
          "dead letter " + id + " was re-published at " + s.republicadoEm(), s.pedidoId());
    }
    return Desfecho.nadaAFazer(
        "dead letter " + id + " is already queued for the relay since " + s.pedidaEm(),
        s.pedidoId());
  }
}
