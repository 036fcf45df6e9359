package pedidos.aplicador.aplicacao;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.dominio.Efeito;
import pedidos.dominio.Escrita;

/**
 * The apply's second round trip: stores what {@link pedidos.dominio.PoliticaDeAplicacao} decided,
 * in one statement, and decides nothing.
 */
final class GravadorDaAplicacao {

  // The end of the upsert of an order's row, the one apply's and a sub-batch's (GravadorDoLote):
  // the row is rewritten only where it differs from the stored one, so an apply that changes
  // nothing leaves no dead tuple and writes no WAL for it.
  static final String SE_O_PEDIDO_MUDOU =
      """
        ON CONFLICT (id) DO UPDATE
           SET status = EXCLUDED.status,
               total_centavos = EXCLUDED.total_centavos,
               cliente_email = EXCLUDED.cliente_email,
               versao_origem = EXCLUDED.versao_origem,
               atualizado_em = now()
         WHERE (pedidos.status, pedidos.total_centavos, pedidos.cliente_email, pedidos.versao_origem)
               IS DISTINCT FROM
               (EXCLUDED.status, EXCLUDED.total_centavos, EXCLUDED.cliente_email, EXCLUDED.versao_origem)
      """;

  // Everything the apply decided, in one statement: the order's new state, the effects that are new
  // (returned: a repeated effect is not recorded twice), the event's verdict, and the corrected
  // verdicts of the order's other facts (a late fact can change them). The two updates of the inbox
  // touch different rows.
  static final String GRAVAR_APLICACAO =
      """
      WITH estado AS (
        INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem)
        VALUES (:pedidoId, :status, :total, :email, :versao)
      """
          + SE_O_PEDIDO_MUDOU
          + """
      ), efeitos AS (
        INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email)
        SELECT :pedidoId, efeito, :status, :total, :email
          FROM unnest(CAST(:efeitos AS text[])) AS efeito
        ON CONFLICT DO NOTHING
        RETURNING efeito
      ), assentado AS (
        UPDATE webhook_eventos
           SET aplicado_em = COALESCE(aplicado_em, now()), resultado = :resultado, motivo = NULL,
               kafka_particao = COALESCE(CAST(:kafkaParticao AS integer), kafka_particao),
               kafka_offset = COALESCE(CAST(:kafkaOffset AS bigint), kafka_offset)
         WHERE evento_id = :eventoId
      ), corrigidos AS (
        UPDATE webhook_eventos w
           SET resultado = c.resultado
          FROM unnest(CAST(:corrigidos AS text[]), CAST(:veredictos AS text[])) AS c (evento_id, resultado)
         WHERE w.evento_id = c.evento_id AND w.evento_id <> :eventoId
      )
      SELECT efeito FROM efeitos
      """;

  static final String ASSENTAR_EVENTO =
      """
      UPDATE webhook_eventos
         SET aplicado_em = COALESCE(aplicado_em, now()), resultado = :resultado, motivo = :motivo,
             kafka_particao = COALESCE(CAST(:kafkaParticao AS integer), kafka_particao),
             kafka_offset = COALESCE(CAST(:kafkaOffset AS bigint), kafka_offset)
       WHERE evento_id = :eventoId
      """;

  private final JdbcClient jdbc;

  GravadorDaAplicacao(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * @param posicao where the record that is applied was read; empty when no record is (the sweep,
   *     reconciliation, re-derivation): the position already stored, if any, stays
   * @return the effects inserted into the outbox: those of {@code gravar} that it did not hold
   */
  List<Efeito> gravar(String pedidoId, Escrita.Gravar gravar, Optional<PosicaoNoTopico> posicao) {
    List<String> corrigidos = new ArrayList<>(gravar.correcoes().size());
    List<String> veredictos = new ArrayList<>(gravar.correcoes().size());
    gravar
        .correcoes()
        .forEach(
            (eventoId, veredicto) -> {
              corrigidos.add(eventoId);
              veredictos.add(veredicto.codigo());
            });
    return jdbc.sql(GRAVAR_APLICACAO)
        .param("pedidoId", pedidoId)
        .param("status", gravar.estado().status().codigo())
        .param("total", gravar.estado().totalCentavos())
        .param("email", gravar.estado().clienteEmail())
        .param("versao", gravar.estado().versaoOrigem())
        .param("efeitos", gravar.efeitos().stream().map(Efeito::codigo).toArray(String[]::new))
        .param("eventoId", gravar.eventoId())
        .param("resultado", gravar.resultado().codigo())
        .param("corrigidos", corrigidos.toArray(String[]::new))
        .param("veredictos", veredictos.toArray(String[]::new))
        .param("kafkaParticao", posicao.map(PosicaoNoTopico::particao).orElse(null), Types.INTEGER)
        .param("kafkaOffset", posicao.map(PosicaoNoTopico::offset).orElse(null), Types.BIGINT)
        .query((rs, n) -> Efeito.doCodigo(rs.getString("efeito")))
        .list();
  }

  void assentar(Escrita.Assentar assentar, Optional<PosicaoNoTopico> posicao) {
    jdbc.sql(ASSENTAR_EVENTO)
        .param("eventoId", assentar.eventoId())
        .param("resultado", assentar.resultado().codigo())
        .param("motivo", assentar.motivo())
        .param("kafkaParticao", posicao.map(PosicaoNoTopico::particao).orElse(null), Types.INTEGER)
        .param("kafkaOffset", posicao.map(PosicaoNoTopico::offset).orElse(null), Types.BIGINT)
        .update();
  }
}
