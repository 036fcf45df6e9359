package pedidos.receptor;

/**
 * Stores one valid event and returns only once its row is committed. Throws {@link
 * Recusa.CorpoInvalido} when PostgreSQL refuses the body and {@link Recusa.BancoIndisponivel} when
 * the database cannot take it now.
 *
 * <p>Two ways, chosen by {@code receptor.gravacao.modo}: {@link GravadorDireto} (one insert, one
 * commit per request) and {@link GravadorEmGrupo} (group commit).
 */
interface Gravador {

  Desfecho gravar(EventoRecebido evento);

  /**
   * As {@link #gravar}, for a warm-up's made-up event ({@link AquecimentoDoReceptor}): the same way
   * to the database, its writes rolled back ({@link EnsaioDaGravacao}).
   */
  Desfecho ensaiar(EventoRecebido evento);
}
