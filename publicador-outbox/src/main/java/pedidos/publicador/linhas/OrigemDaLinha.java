package pedidos.publicador.linhas;

/**
 * Where a captured row lives: enough to find it again in its table and in the WAL, which is what a
 * dead-lettered row is recorded with.
 *
 * @param chave the row's primary key as a JSON object ({@code {"evento_id": ...}} or {@code
 *     {"pedido_id": ..., "efeito": ...}}), the shape Debezium gives a change's key
 * @param lsn the row's position in the WAL; null when the row was read from its table
 */
public record OrigemDaLinha(Tabela tabela, String chave, Long lsn) {

  /** The LSN as PostgreSQL writes a {@code pg_lsn}, or null. */
  public String lsnDoPostgres() {
    return lsn == null
        ? null
        : Long.toHexString(lsn >>> 32) + "/" + Long.toHexString(lsn & 0xFFFFFFFFL);
  }
}
