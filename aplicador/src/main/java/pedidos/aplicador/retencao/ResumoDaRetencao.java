package pedidos.aplicador.retencao;

/**
 * What one retention run changed.
 *
 * @param corposRedigidos inbox payloads reduced to what the fold reads
 * @param quarentenaApagada quarantined bodies deleted
 * @param outboxApagado sent outbox rows deleted
 * @param outboxEmailsRemovidos sent outbox rows kept as a key, their snapshot's email cleared
 * @param lotes batches (transactions) the run took, every table together
 * @param nanos the run's duration
 * @param maiorLoteNanos the longest batch
 */
public record ResumoDaRetencao(
    long corposRedigidos,
    long quarentenaApagada,
    long outboxApagado,
    long outboxEmailsRemovidos,
    long lotes,
    long nanos,
    long maiorLoteNanos) {

  long linhas() {
    return corposRedigidos + quarentenaApagada + outboxApagado + outboxEmailsRemovidos;
  }
}
