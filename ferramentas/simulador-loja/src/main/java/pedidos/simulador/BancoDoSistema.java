package pedidos.simulador;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import pedidos.dominio.EstadoDoPedido;
import pedidos.dominio.Status;
import pedidos.simulador.FotoDoBanco.LinhaDoInbox;
import pedidos.simulador.FotoDoBanco.LinhaDoOutbox;

/** Reads the system's database; never writes to it. */
final class BancoDoSistema {

  static final String PEDIDOS =
      """
      SELECT id, status, versao_origem, total_centavos, cliente_email
        FROM pedidos
       WHERE id = ANY(?)
      """;

  static final String OUTBOX =
      """
      SELECT pedido_id, efeito, enviado_em IS NOT NULL AS enviado
        FROM outbox
       WHERE pedido_id = ANY(?)
      """;

  static final String INBOX =
      """
      SELECT evento_id, recurso_id, tipo, aplicado_em IS NOT NULL AS aplicado, resultado
        FROM webhook_eventos
       WHERE recurso_id = ANY(?)
      """;

  private final String url;
  private final String usuario;
  private final String senha;

  BancoDoSistema(String url, String usuario, String senha) {
    this.url = url;
    this.usuario = usuario;
    this.senha = senha;
  }

  /**
   * One read-only repeatable-read transaction, so that the three tables agree with each other (an
   * apply commits the state, the outbox and the inbox result together).
   */
  FotoDoBanco fotografar(Collection<String> pedidoIds) throws SQLException {
    try (Connection conexao = DriverManager.getConnection(url, usuario, senha)) {
      conexao.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      conexao.setReadOnly(true);
      conexao.setAutoCommit(false);
      try {
        Array ids = conexao.createArrayOf("text", pedidoIds.toArray());
        return new FotoDoBanco(pedidos(conexao, ids), outbox(conexao, ids), inbox(conexao, ids));
      } finally {
        conexao.rollback();
      }
    }
  }

  private static Map<String, EstadoDoPedido> pedidos(Connection conexao, Array ids)
      throws SQLException {
    Map<String, EstadoDoPedido> pedidos = new HashMap<>();
    try (PreparedStatement consulta = conexao.prepareStatement(PEDIDOS)) {
      consulta.setArray(1, ids);
      try (ResultSet linhas = consulta.executeQuery()) {
        while (linhas.next()) {
          long total = linhas.getLong("total_centavos");
          Long totalOuNulo = linhas.wasNull() ? null : total;
          pedidos.put(
              linhas.getString("id"),
              new EstadoDoPedido(
                  Status.doCodigo(linhas.getString("status")),
                  linhas.getLong("versao_origem"),
                  totalOuNulo,
                  linhas.getString("cliente_email")));
        }
      }
    }
    return pedidos;
  }

  private static List<LinhaDoOutbox> outbox(Connection conexao, Array ids) throws SQLException {
    List<LinhaDoOutbox> linhasDoOutbox = new ArrayList<>();
    try (PreparedStatement consulta = conexao.prepareStatement(OUTBOX)) {
      consulta.setArray(1, ids);
      try (ResultSet linhas = consulta.executeQuery()) {
        while (linhas.next()) {
          linhasDoOutbox.add(
              new LinhaDoOutbox(
                  linhas.getString("pedido_id"),
                  linhas.getString("efeito"),
                  linhas.getBoolean("enviado")));
        }
      }
    }
    return linhasDoOutbox;
  }

  private static List<LinhaDoInbox> inbox(Connection conexao, Array ids) throws SQLException {
    List<LinhaDoInbox> linhasDoInbox = new ArrayList<>();
    try (PreparedStatement consulta = conexao.prepareStatement(INBOX)) {
      consulta.setArray(1, ids);
      try (ResultSet linhas = consulta.executeQuery()) {
        while (linhas.next()) {
          linhasDoInbox.add(
              new LinhaDoInbox(
                  linhas.getString("evento_id"),
                  linhas.getString("recurso_id"),
                  linhas.getString("tipo"),
                  linhas.getBoolean("aplicado"),
                  linhas.getString("resultado")));
        }
      }
    }
    return linhasDoInbox;
  }
}
