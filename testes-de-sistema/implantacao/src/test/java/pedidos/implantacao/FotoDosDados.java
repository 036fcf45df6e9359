package pedidos.implantacao;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What PostgreSQL keeps on its volume, as the schema's owner reads it: every order (a digest of all
 * of them, field by field), the inbox and the outbox, the replication slot the relay streams from,
 * and the migrations applied.
 */
record FotoDosDados(
    long pedidos,
    String resumoDosPedidos,
    long eventos,
    long efeitos,
    List<String> slots,
    long migracoes) {

  private static final String PEDIDOS =
      """
      SELECT count(*), coalesce(md5(string_agg(
               concat_ws('|', id, status, total_centavos, cliente_email, versao_origem),
               ',' ORDER BY id)), '')
        FROM pedidos
      """;

  static FotoDosDados tirar(Connection conexao) throws SQLException {
    try (Statement consulta = conexao.createStatement()) {
      long pedidos;
      String resumo;
      try (ResultSet linhas = consulta.executeQuery(PEDIDOS)) {
        linhas.next();
        pedidos = linhas.getLong(1);
        resumo = linhas.getString(2);
      }
      List<String> slots = new ArrayList<>();
      try (ResultSet linhas =
          consulta.executeQuery(
              "SELECT slot_name || ' ' || plugin FROM pg_replication_slots ORDER BY 1")) {
        while (linhas.next()) {
          slots.add(linhas.getString(1));
        }
      }
      return new FotoDosDados(
          pedidos,
          resumo,
          contar(consulta, "SELECT count(*) FROM webhook_eventos"),
          contar(consulta, "SELECT count(*) FROM outbox"),
          slots,
          contar(consulta, "SELECT count(*) FROM flyway_schema_history WHERE success"));
    }
  }

  private static long contar(Statement consulta, String sql) throws SQLException {
    try (ResultSet linhas = consulta.executeQuery(sql)) {
      linhas.next();
      return linhas.getLong(1);
    }
  }
}
