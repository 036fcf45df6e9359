package pedidos.aplicador.painel;

import java.time.OffsetDateTime;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import pedidos.contrato.MascaraDeEmail;

/**
 * What is held back and waits for an operator, with the actions that let it go: the latest
 * quarantined bodies (released or not) and the relay's open dead letters. Each list is the latest
 * 50 by primary key, so its cost does not grow with the tables.
 */
@RestController
class Retidos {

  static final String QUARENTENA =
      """
      SELECT id, evento_id, motivo, recebido_em, ultimo_recebimento_em, recebimentos, liberado_em,
             liberado_como
        FROM webhook_quarentena
       ORDER BY id DESC
       LIMIT 50
      """;

  static final String MORTOS =
      """
      SELECT id, tabela, chave::text AS chave, motivo, tentativas, registrado_em,
             republicacao_pedida_em
        FROM publicador_mortos
       WHERE republicado_em IS NULL
       ORDER BY id DESC
       LIMIT 50
      """;

  private final JdbcClient jdbc;

  Retidos(ConsultasDoPainel consultas) {
    this.jdbc = consultas.jdbc();
  }

  record Quarentenado(
      long id,
      String eventoId,
      String motivo,
      OffsetDateTime recebidoEm,
      OffsetDateTime ultimoRecebimentoEm,
      int recebimentos,
      OffsetDateTime liberadoEm,
      String liberadoComo) {}

  record Morto(
      long id,
      String tabela,
      String chave,
      String motivo,
      int tentativas,
      OffsetDateTime registradoEm,
      OffsetDateTime republicacaoPedidaEm) {}

  record Lista(List<Quarentenado> quarentena, List<Morto> mortos) {}

  @GetMapping("/status/retidos")
  Lista retidos() {
    return new Lista(
        jdbc.sql(QUARENTENA)
            .query(
                (rs, n) ->
                    new Quarentenado(
                        rs.getLong("id"),
                        rs.getString("evento_id"),
                        MascaraDeEmail.mascararNoTexto(rs.getString("motivo")),
                        rs.getObject("recebido_em", OffsetDateTime.class),
                        rs.getObject("ultimo_recebimento_em", OffsetDateTime.class),
                        rs.getInt("recebimentos"),
                        rs.getObject("liberado_em", OffsetDateTime.class),
                        rs.getString("liberado_como")))
            .list(),
        jdbc.sql(MORTOS)
            .query(
                (rs, n) ->
                    new Morto(
                        rs.getLong("id"),
                        rs.getString("tabela"),
                        rs.getString("chave"),
                        MascaraDeEmail.mascararNoTexto(rs.getString("motivo")),
                        rs.getInt("tentativas"),
                        rs.getObject("registrado_em", OffsetDateTime.class),
                        rs.getObject("republicacao_pedida_em", OffsetDateTime.class)))
            .list());
  }
}
