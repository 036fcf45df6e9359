package pedidos.aplicador.aplicacao;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.dominio.Efeito;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.Resultado;

/**
 * The second round trip of the apply of several records together ({@link AplicacaoEmLote}): what
 * the policy decided for them all, collapsed to one row per key, in one statement. {@link
 * GravadorDaAplicacao#GRAVAR_APLICACAO} for a sub-batch: one statement cannot update a row twice,
 * so each order's row, each effect and each inbox row comes once, as the last of the records left
 * it.
 */
final class GravadorDoLote {

  // The orders' final rows (written only where they differ from the stored ones, as one apply
  // does); the effects born, in the order the records bore them, each with the order's snapshot of
  // that moment, returned when new (one the outbox held is not recorded twice); the inbox rows: a
  // settled event gets its verdict, reason and position as GRAVAR_APLICACAO or ASSENTAR_EVENTO set
  // them, a fact only corrected gets its verdict.
  static final String GRAVAR_LOTE =
      """
      WITH estados AS (
        INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem)
        SELECT * FROM unnest(CAST(:pedidoIds AS text[]), CAST(:status AS text[]),
                             CAST(:totais AS bigint[]), CAST(:emails AS text[]),
                             CAST(:versoes AS bigint[]))
      """
          + GravadorDaAplicacao.SE_O_PEDIDO_MUDOU
          + """
      ), efeitos AS (
        INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email)
        SELECT n.pedido_id, n.efeito, n.status, n.total, n.email
          FROM unnest(CAST(:efeitoPedidos AS text[]), CAST(:efeitos AS text[]),
                      CAST(:efeitoStatus AS text[]), CAST(:efeitoTotais AS bigint[]),
                      CAST(:efeitoEmails AS text[]))
               WITH ORDINALITY AS n (pedido_id, efeito, status, total, email, ordem)
         ORDER BY n.ordem
        ON CONFLICT DO NOTHING
        RETURNING pedido_id, efeito
      ), eventos AS (
        UPDATE webhook_eventos w
           SET aplicado_em = CASE WHEN c.assentado THEN COALESCE(w.aplicado_em, now())
                                  ELSE w.aplicado_em END,
               resultado = c.resultado,
               motivo = CASE WHEN c.assentado THEN c.motivo ELSE w.motivo END,
               kafka_particao = CASE WHEN c.assentado THEN COALESCE(c.particao, w.kafka_particao)
                                     ELSE w.kafka_particao END,
               kafka_offset = CASE WHEN c.assentado THEN COALESCE(c.deslocamento, w.kafka_offset)
                                   ELSE w.kafka_offset END
          FROM unnest(CAST(:eventoIds AS text[]), CAST(:resultados AS text[]),
                      CAST(:assentados AS boolean[]), CAST(:motivos AS text[]),
                      CAST(:particoes AS integer[]), CAST(:offsets AS bigint[]))
               AS c (evento_id, resultado, assentado, motivo, particao, deslocamento)
         WHERE w.evento_id = c.evento_id
      )
      SELECT pedido_id, efeito FROM efeitos
      """;

  /** An order's row as the sub-batch leaves it. */
  record LinhaDoPedido(String pedidoId, EstadoDoPedido estado) {}

  /** An effect a record bore, with the order as the policy left it at that record. */
  record EfeitoNascido(String pedidoId, Efeito efeito, EstadoDoPedido instantaneo) {}

  /**
   * An inbox row as the sub-batch leaves it.
   *
   * @param assentado whether a record of the sub-batch settled it (else it is only corrected)
   * @param motivo when settled: the reason, {@code null} for a fact
   * @param posicao when settled: where its record was read
   */
  record LinhaDoEvento(
      String eventoId,
      Resultado resultado,
      boolean assentado,
      String motivo,
      PosicaoNoTopico posicao) {}

  /** An effect's key in the outbox. */
  record ChaveDoEfeito(String pedidoId, Efeito efeito) {}

  private final JdbcClient jdbc;

  GravadorDoLote(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * @return the effects inserted into the outbox: those the outbox did not hold
   */
  Set<ChaveDoEfeito> gravar(
      List<LinhaDoPedido> pedidos, List<EfeitoNascido> efeitos, List<LinhaDoEvento> eventos) {
    return new HashSet<>(
        jdbc.sql(GRAVAR_LOTE)
            .param(
                "pedidoIds", pedidos.stream().map(LinhaDoPedido::pedidoId).toArray(String[]::new))
            .param(
                "status",
                pedidos.stream().map(p -> p.estado().status().codigo()).toArray(String[]::new))
            .param(
                "totais",
                pedidos.stream().map(p -> p.estado().totalCentavos()).toArray(Long[]::new))
            .param(
                "emails",
                pedidos.stream().map(p -> p.estado().clienteEmail()).toArray(String[]::new))
            .param(
                "versoes",
                pedidos.stream().map(p -> p.estado().versaoOrigem()).toArray(Long[]::new))
            .param(
                "efeitoPedidos",
                efeitos.stream().map(EfeitoNascido::pedidoId).toArray(String[]::new))
            .param("efeitos", efeitos.stream().map(e -> e.efeito().codigo()).toArray(String[]::new))
            .param(
                "efeitoStatus",
                efeitos.stream().map(e -> e.instantaneo().status().codigo()).toArray(String[]::new))
            .param(
                "efeitoTotais",
                efeitos.stream().map(e -> e.instantaneo().totalCentavos()).toArray(Long[]::new))
            .param(
                "efeitoEmails",
                efeitos.stream().map(e -> e.instantaneo().clienteEmail()).toArray(String[]::new))
            .param(
                "eventoIds", eventos.stream().map(LinhaDoEvento::eventoId).toArray(String[]::new))
            .param(
                "resultados",
                eventos.stream().map(e -> e.resultado().codigo()).toArray(String[]::new))
            .param(
                "assentados",
                eventos.stream().map(LinhaDoEvento::assentado).toArray(Boolean[]::new))
            .param("motivos", eventos.stream().map(LinhaDoEvento::motivo).toArray(String[]::new))
            .param(
                "particoes",
                eventos.stream()
                    .map(e -> e.posicao() == null ? null : e.posicao().particao())
                    .toArray(Integer[]::new))
            .param(
                "offsets",
                eventos.stream()
                    .map(e -> e.posicao() == null ? null : e.posicao().offset())
                    .toArray(Long[]::new))
            .query(
                (rs, n) ->
                    new ChaveDoEfeito(
                        rs.getString("pedido_id"), Efeito.doCodigo(rs.getString("efeito"))))
            .list());
  }
}
