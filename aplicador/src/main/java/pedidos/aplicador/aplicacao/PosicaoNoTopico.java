package pedidos.aplicador.aplicacao;

/**
 * Where a record of {@code loja.eventos} was read: stored on the event's inbox row when the record
 * applies it ({@code kafka_particao}, {@code kafka_offset}, V13), so the order's page can say where
 * each fact came from.
 */
public record PosicaoNoTopico(int particao, long offset) {}
