package pedidos.publicador.metricas;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import pedidos.publicador.configuracao.PublicadorProperties;

/**
 * Adds the effects this instance published to the status page's flow per minute ({@code
 * fluxo_por_minuto}, migration V14), from its own counter: one upsert every {@link #INTERVALO},
 * nothing on the publishing path. A standby, which publishes nothing, writes nothing. What a crash
 * loses is at most one interval's count, on a chart.
 */
@Component
class FluxoPublicado implements SchedulingConfigurer {

  static final Duration INTERVALO = Duration.ofSeconds(10);

  static final String SOMAR =
      """
      INSERT INTO fluxo_por_minuto (minuto, publicados)
      VALUES (:minuto, :publicados)
      ON CONFLICT (minuto) DO UPDATE
        SET publicados = fluxo_por_minuto.publicados + excluded.publicados
      """;

  private static final Logger log = LoggerFactory.getLogger(FluxoPublicado.class);

  private final JdbcClient jdbc;
  private final MetricasDoPublicador metricas;
  private final Clock clock;
  private final boolean transmitir;
  private long somados;

  FluxoPublicado(
      JdbcClient jdbc,
      MetricasDoPublicador metricas,
      Clock clock,
      PublicadorProperties propriedades) {
    this.jdbc = jdbc;
    this.metricas = metricas;
    this.clock = clock;
    this.transmitir = propriedades.transmitir();
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar agenda) {
    if (transmitir) {
      agenda.addFixedDelayTask(this::somar, INTERVALO);
    }
  }

  /** Adds what was published since the last call to the current minute. */
  synchronized void somar() {
    long publicadas = metricas.outboxPublicadas();
    long novas = publicadas - somados;
    if (novas <= 0) {
      return;
    }
    try {
      jdbc.sql(SOMAR)
          .param("minuto", Timestamp.from(clock.instant().truncatedTo(ChronoUnit.MINUTES)))
          .param("publicados", novas)
          .update();
      somados = publicadas;
    } catch (DataAccessException e) {
      // Kept for the next interval: the count is late on the chart, not lost.
      log.debug("Flow per minute not written, retried in {}: {}", INTERVALO, e.toString());
    }
  }
}
