package pedidos.aplicador;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Applies, straight from the inbox, the events still pending after a while: the system converges
 * even while the relay or Kafka is down, or when a record was lost on the way. Each event is its
 * own transaction in {@link ModoDeAplicacao#VARREDURA}, which skips orders another apply holds, so
 * sweeps of several instances and the listener never wait on each other.
 */
@Component
class Varredura {

  private static final Logger log = LoggerFactory.getLogger(Varredura.class);

  static final String PENDENTES =
      """
      SELECT evento_id
        FROM webhook_eventos
       WHERE aplicado_em IS NULL AND recebido_em < now() - make_interval(secs => :idade)
       ORDER BY recebido_em
       LIMIT :lote
      """;

  private final JdbcClient jdbc;
  private final AplicadorDeEventos aplicador;
  private final AplicadorProperties.Varredura propriedades;
  private final MetricasDoAplicador metricas;

  Varredura(
      JdbcClient jdbc,
      AplicadorDeEventos aplicador,
      AplicadorProperties propriedades,
      MetricasDoAplicador metricas) {
    this.jdbc = jdbc;
    this.aplicador = aplicador;
    this.propriedades = propriedades.varredura();
    this.metricas = metricas;
  }

  /**
   * One round.
   *
   * @return how many events this round applied
   */
  int varrer() {
    List<String> pendentes =
        jdbc.sql(PENDENTES)
            .param("idade", propriedades.idade().toMillis() / 1000.0)
            .param("lote", propriedades.lote())
            .query(String.class)
            .list();
    int aplicados = 0;
    for (String eventoId : pendentes) {
      long inicio = System.nanoTime();
      try {
        var aplicado = aplicador.aplicar(eventoId, ModoDeAplicacao.VARREDURA);
        if (aplicado.isPresent()) {
          metricas.aplicado("varredura", aplicado.get(), System.nanoTime() - inicio);
          aplicados++;
        }
      } catch (RuntimeException e) {
        // The event stays pending in the inbox, where the next round finds it; one failing
        // event must not stop the round for the others.
        metricas.falhaNaVarredura();
        log.error("evento_id={} could not be applied by the sweep", eventoId, e);
      }
    }
    if (aplicados > 0) {
      log.info("sweep applied {} pending events", aplicados);
    }
    return aplicados;
  }
}
