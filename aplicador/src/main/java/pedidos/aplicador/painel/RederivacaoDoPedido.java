package pedidos.aplicador.painel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.dominio.Efeito;
import pedidos.dominio.ModoDeAplicacao;

/**
 * Re-derives one order: every stored event of it applied again in replay's forced mode ({@link
 * ModoDeAplicacao#FORCADO}), in one transaction. A correct order stays as it is (the fold is a
 * function of its facts, and the outbox's key keeps each effect once), so doing it twice does it
 * once; a state a restore left behind, or an event settled as {@code falha_de_aplicacao} after its
 * cause was fixed, is repaired.
 */
@Component
class RederivacaoDoPedido {

  static final String EVENTOS =
      """
      SELECT evento_id FROM webhook_eventos
       WHERE recurso_id = :pedido
       ORDER BY recebido_em, evento_id
       LIMIT :limite
      """;

  /**
   * What re-deriving may change: the row (the email as a digest: the audit never holds one), the
   * effects, the verdicts.
   */
  static final String FOTOGRAFIA =
      """
      SELECT 'pedido' AS tipo, id AS chave,
             status || ' v' || versao_origem || ' total ' || coalesce(total_centavos::text, '-')
               || ' email#' || coalesce(left(md5(cliente_email), 8), '-') AS valor
        FROM pedidos WHERE id = :pedido
      UNION ALL
      SELECT 'efeito', efeito, efeito FROM outbox WHERE pedido_id = :pedido
      UNION ALL
      SELECT 'evento', evento_id, coalesce(resultado, 'pendente')
        FROM webhook_eventos WHERE recurso_id = :pedido
      """;

  private final JdbcClient jdbc;
  private final TransactionTemplate transacao;
  private final AplicadorDeEventos aplicador;

  RederivacaoDoPedido(
      JdbcClient jdbc, TransactionTemplate transacao, AplicadorDeEventos aplicador) {
    this.jdbc = jdbc;
    this.transacao = transacao;
    this.aplicador = aplicador;
  }

  Desfecho rederivar(String pedidoId) {
    return transacao.execute(
        status -> {
          Rederivado r = rederivarNaTransacao(pedidoId);
          if (r.eventos() == 0) {
            return Desfecho.recusado("the inbox holds no event of order " + pedidoId, pedidoId);
          }
          String feito =
              "re-applied "
                  + r.eventos()
                  + " event(s) in forced mode; state "
                  + r.estadoAntes()
                  + " -> "
                  + r.estadoDepois()
                  + "; new effects "
                  + r.novos().stream().map(Efeito::codigo).toList();
          return r.mudou()
              ? Desfecho.feito(feito + r.veredictos(), pedidoId)
              : Desfecho.nadaAFazer(
                  "the order already was the fold of its facts: "
                      + r.eventos()
                      + " event(s) re-applied, nothing changed",
                  pedidoId);
        });
  }

  /**
   * The re-derivation itself, inside the caller's transaction: the single order's action above and
   * the bulk job ({@link ExecutorDeRederivacoes}) both take it, the job's dry run in a transaction
   * it rolls back, so the dry run computes with the very code and rules of the run.
   */
  Rederivado rederivarNaTransacao(String pedidoId) {
    List<String> eventos =
        jdbc.sql(EVENTOS)
            .param("pedido", pedidoId)
            .param("limite", ExplicacaoDoPedido.EVENTOS_POR_PEDIDO)
            .query(String.class)
            .list();
    if (eventos.isEmpty()) {
      return new Rederivado(0, Map.of(), Map.of(), List.of());
    }
    Map<String, String> antes = fotografar(pedidoId);
    List<Efeito> novos = new ArrayList<>();
    for (String eventoId : eventos) {
      aplicador
          .aplicarNaTransacao(eventoId, ModoDeAplicacao.FORCADO)
          .ifPresent(aplicado -> novos.addAll(aplicado.efeitos()));
    }
    return new Rederivado(eventos.size(), antes, fotografar(pedidoId), List.copyOf(novos));
  }

  /**
   * What one re-derivation did: the events re-applied, what it may change before and after, and the
   * effects born.
   */
  record Rederivado(
      int eventos, Map<String, String> antes, Map<String, String> depois, List<Efeito> novos) {

    boolean mudou() {
      return !antes.equals(depois);
    }

    String estadoAntes() {
      return resumo(antes);
    }

    String estadoDepois() {
      return resumo(depois);
    }

    /** The verdicts that changed, in words; empty when none did. */
    String veredictos() {
      return mudancas(antes, depois);
    }
  }

  private Map<String, String> fotografar(String pedidoId) {
    Map<String, String> foto = new TreeMap<>();
    jdbc.sql(FOTOGRAFIA)
        .param("pedido", pedidoId)
        .query(
            (rs, n) ->
                foto.put(rs.getString("tipo") + ":" + rs.getString("chave"), rs.getString("valor")))
        .list();
    return foto;
  }

  private static String resumo(Map<String, String> foto) {
    return foto.entrySet().stream()
        .filter(entrada -> entrada.getKey().startsWith("pedido:"))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse("none");
  }

  private static String mudancas(Map<String, String> antes, Map<String, String> depois) {
    List<String> mudou = new ArrayList<>();
    depois.forEach(
        (chave, valor) -> {
          if (chave.startsWith("evento:") && !valor.equals(antes.get(chave))) {
            mudou.add(chave.substring(7) + " " + antes.get(chave) + " -> " + valor);
          }
        });
    return mudou.isEmpty() ? "" : "; verdicts " + String.join(", ", mudou);
  }
}
