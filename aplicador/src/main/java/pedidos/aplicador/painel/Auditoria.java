package pedidos.aplicador.painel;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The audit of the operators' actions ({@code operacoes_auditadas}, V13): one row per attempt,
 * written in a transaction of its own after the action's, so a failed or refused attempt is
 * recorded as well as a done one.
 */
@Component
class Auditoria {

  static final String REGISTRAR =
      """
      INSERT INTO operacoes_auditadas (operador, acao, alvo, pedido_id, resultado, detalhe)
      VALUES (:operador, :acao, :alvo, :pedido, :resultado, :detalhe)
      """;

  private final JdbcClient jdbc;

  Auditoria(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  void registrar(String operador, String acao, String alvo, Desfecho desfecho) {
    jdbc.sql(REGISTRAR)
        .param("operador", operador)
        .param("acao", acao)
        .param("alvo", alvo)
        .param("pedido", desfecho.pedidoId())
        .param("resultado", desfecho.resultado())
        .param("detalhe", desfecho.detalhe())
        .update();
  }
}
