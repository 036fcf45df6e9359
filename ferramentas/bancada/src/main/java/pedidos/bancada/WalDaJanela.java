package pedidos.bancada;

import static pedidos.bancada.RelatorioDaBancada.linha;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The WAL the warm window wrote: bytes per event, then by record type and by relation, read back
 * with {@code pg_walinspect} once the load is over (reading millions of records costs what the
 * window would otherwise measure). Each event's WAL is written on every commit with {@code fsync}
 * on and decoded again by the relay's slot, so it is a cost per event of its own.
 */
final class WalDaJanela {

  private static final String POSICAO = "SELECT pg_current_wal_lsn()::text";

  private static final String EXTENSAO = "CREATE EXTENSION IF NOT EXISTS pg_walinspect";

  private static final String TOTAL = "SELECT pg_wal_lsn_diff(?::pg_lsn, ?::pg_lsn)::bigint";

  private static final String POR_TIPO =
      """
      SELECT "resource_manager/record_type", count, combined_size, fpi_size
        FROM pg_get_wal_stats(?::pg_lsn, ?::pg_lsn, true)
       ORDER BY combined_size DESC
       LIMIT 12
      """;

  /** A record is counted on the relation of its first block; commits and messages have none. */
  private static final String POR_RELACAO =
      """
      SELECT COALESCE(pg_filenode_relation(m[1]::oid, m[3]::oid)::text,
                      CASE WHEN m IS NULL THEN 'no relation (' || r.resource_manager || ')'
                           ELSE 'relfilenode ' || m[3] END),
             count(*), sum(r.record_length)::bigint, sum(r.fpi_length)::bigint
        FROM pg_get_wal_records_info(?::pg_lsn, ?::pg_lsn) r
        LEFT JOIN LATERAL regexp_match(r.block_ref, 'rel (\\d+)/(\\d+)/(\\d+)') m ON true
       GROUP BY 1
       ORDER BY 3 DESC
       LIMIT 12
      """;

  private WalDaJanela() {}

  static String posicao(Connection conexao) throws SQLException {
    try (Statement s = conexao.createStatement();
        ResultSet r = s.executeQuery(POSICAO)) {
      r.next();
      return r.getString(1);
    }
  }

  /** The section, read as superuser, for the window between two positions and its events. */
  static String texto(Connection conexao, String inicio, String fim, long eventos)
      throws SQLException {
    var texto = new StringBuilder();
    try (Statement s = conexao.createStatement()) {
      s.execute(EXTENSAO);
    }
    long total;
    try (PreparedStatement p = conexao.prepareStatement(TOTAL)) {
      p.setString(1, fim);
      p.setString(2, inicio);
      try (ResultSet r = p.executeQuery()) {
        r.next();
        total = r.getLong(1);
      }
    }
    linha(texto, "");
    linha(texto, "### WAL per event (warm window, `pg_walinspect`)");
    linha(texto, "");
    linha(
        texto,
        "%s to %s: %.1f MB for %d events, **%.0f bytes per event**. By record type and by relation"
            + " (a record counted on its first block's relation), bytes per event; FPI: full-page"
            + " images, written on a page's first change after a checkpoint.",
        inicio,
        fim,
        total / 1e6,
        eventos,
        (double) total / eventos);
    linha(texto, "");
    linha(texto, "| record type | records per event | bytes per event | of which FPI |");
    linha(texto, "|---|---|---|---|");
    linhas(texto, conexao, POR_TIPO, inicio, fim, eventos);
    linha(texto, "");
    linha(texto, "| relation | records per event | bytes per event | of which FPI |");
    linha(texto, "|---|---|---|---|");
    linhas(texto, conexao, POR_RELACAO, inicio, fim, eventos);
    return texto.toString();
  }

  private static void linhas(
      StringBuilder texto,
      Connection conexao,
      String sql,
      String inicio,
      String fim,
      double eventos)
      throws SQLException {
    try (PreparedStatement p = conexao.prepareStatement(sql)) {
      p.setString(1, inicio);
      p.setString(2, fim);
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          linha(
              texto,
              "| %s | %.2f | %.0f | %.0f |",
              r.getString(1),
              r.getLong(2) / eventos,
              r.getLong(3) / eventos,
              r.getLong(4) / eventos);
        }
      }
    }
  }
}
