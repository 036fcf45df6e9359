package pedidos.aplicador.replay;

/**
 * What a replay did.
 *
 * @param lidos records read in the range
 * @param restaurados events the inbox lacked and got back
 * @param aplicados events re-applied (forced)
 * @param inaplicaveis records that can never be applied, reported and skipped
 * @param naoAutenticados records without the relay's valid signature, reported and skipped (never
 *     stored: they may be forgeries)
 */
public record ResumoDoReplay(
    long lidos, long restaurados, long aplicados, long inaplicaveis, long naoAutenticados) {}
