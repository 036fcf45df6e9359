package pedidos.aplicador.varredura;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.FalhasDeAplicacao;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.Resultado;

/**
 * Applies, straight from the inbox, the events still pending after a while: the system converges
 * even while the relay or Kafka is down, or when a record was lost on the way. Each event is its
 * own transaction in {@link ModoDeAplicacao#VARREDURA}, which skips orders another apply holds, so
 * sweeps of several instances and the listener never wait on each other.
 *
 * <p>Rows that never failed come first, oldest first, then failed rows whose next attempt is due
 * ({@link FalhasDeAplicacao} delays each failed row and settles it after a few unknown failures):
 * however many rows keep failing, they never fill a round and hold newer rows behind them.
 */
@Component
public class Varredura {

  private static final Logger log = LoggerFactory.getLogger(Varredura.class);

  static final String PENDENTES =
      """
      SELECT evento_id
        FROM webhook_eventos
       WHERE aplicado_em IS NULL AND recebido_em < now() - make_interval(secs => :idade)
         AND (proxima_tentativa_em IS NULL OR proxima_tentativa_em <= now())
       ORDER BY proxima_tentativa_em NULLS FIRST, recebido_em
       LIMIT :lote
      """;

  private final JdbcClient jdbc;
  private final AplicadorDeEventos aplicador;
  private final AplicadorProperties.Varredura propriedades;
  private final MetricasDoAplicador metricas;
  private final FalhasDeAplicacao falhas;

  Varredura(
      JdbcClient jdbc,
      AplicadorDeEventos aplicador,
      AplicadorProperties propriedades,
      MetricasDoAplicador metricas,
      FalhasDeAplicacao falhas) {
    this.jdbc = jdbc;
    this.aplicador = aplicador;
    this.propriedades = propriedades.varredura();
    this.metricas = metricas;
    this.falhas = falhas;
  }

  /**
   * One round.
   *
   * @return how many events this round applied
   */
  public int varrer() {
    List<String> pendentes =
        jdbc.sql(PENDENTES)
            .param("idade", propriedades.idade().toMillis() / 1000.0)
            .param("lote", propriedades.lote())
            .query(String.class)
            .list();
    int aplicados = 0;
    for (String eventoId : pendentes) {
      // The listener's lines carry the event's id as a field; the sweep's too, so that one
      // search finds every line about an event whichever path applied it.
      try (var id = MDC.putCloseable("evento_id", eventoId)) {
        if (aplicar(eventoId)) {
          aplicados++;
        }
      }
    }
    if (aplicados > 0) {
      log.info("sweep applied {} pending events", aplicados);
    }
    return aplicados;
  }

  private boolean aplicar(String eventoId) {
    long inicio = System.nanoTime();
    try {
      var aplicado = aplicador.aplicar(eventoId, ModoDeAplicacao.VARREDURA);
      aplicado.ifPresent(
          resultado -> metricas.aplicado("varredura", resultado, System.nanoTime() - inicio));
      return aplicado.isPresent();
    } catch (RuntimeException e) {
      // One failing event must not stop the round for the others. Its failure is counted on
      // its row: it waits before the next attempt, and is settled after a few unknown ones.
      metricas.falhaNaVarredura();
      log.error("evento_id={} could not be applied by the sweep", eventoId, e);
      registrar(eventoId, e);
      return false;
    }
  }

  private void registrar(String eventoId, RuntimeException falha) {
    try {
      if (falhas.registrar(eventoId, falha)) {
        metricas.falhaDeAplicacao("varredura");
        log.error(
            "evento_id={} settled as {} after repeated failures",
            eventoId,
            Resultado.FALHA_DE_APLICACAO.codigo(),
            falha);
      }
    } catch (RuntimeException e) {
      // The database that failed the apply may fail this too: the row stays pending, due at
      // once, and the next round tries it again.
      e.addSuppressed(falha);
      log.error("evento_id={} failure could not be recorded", eventoId, e);
    }
  }
}
