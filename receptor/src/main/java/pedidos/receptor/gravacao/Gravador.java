package pedidos.receptor.gravacao;

import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;
import pedidos.receptor.evento.EventoRecebido;

/**
 * Stores one valid event and returns only once its row is committed. Throws a {@link Recusa}:
 * {@link TipoDeRecusa#CORPO_INVALIDO} when PostgreSQL refuses the body, {@link
 * TipoDeRecusa#BANCO_INDISPONIVEL} or {@link TipoDeRecusa#FILA_CHEIA} when it cannot be taken now.
 *
 * <p>Two ways, chosen by {@code receptor.gravacao.modo}: {@link GravadorDireto} (one insert, one
 * commit per request) and {@link GravadorEmGrupo} (group commit).
 */
public interface Gravador {

  Desfecho gravar(EventoRecebido evento);
}
