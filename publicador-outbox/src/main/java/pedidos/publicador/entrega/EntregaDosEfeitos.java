package pedidos.publicador.entrega;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.publicador.metricas.MetricasDoPublicador;

/**
 * Whether effects go to {@code separacao.efeitos} now: the state an operator sets from the
 * applier's page or command line (table {@code entrega_dos_efeitos}, V16), read by every instance
 * every {@code publicador.entrega.intervalo}, so the active relay and its standbys agree and a
 * restart, or a new active relay, finds it as it was.
 *
 * <p>The stream asks for the mode once per batch ({@link #modoDoLote()}); while it is not {@link
 * ModoDaEntrega#AO_VIVO} the batch's outbox rows are not sent and stay unsent in the table, which
 * is what the paced drain sends from. The drain returns to the stream through {@link
 * #aoVivoSeNadaPendente}, and both take the same lock: a batch decides under it, so every row a
 * batch left in the table was committed before the drain's last look at the table, which saw it. No
 * row is left behind, and none of an order is sent from the stream before an older one from the
 * table.
 */
@Component
public class EntregaDosEfeitos implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(EntregaDosEfeitos.class);

  static final String LER =
      """
      SELECT pausada, pausada_em, pausada_por, motivo, retomada_em, esvaziada_em
        FROM entrega_dos_efeitos
      """;

  // Only the drain this relay saw begin ends here: a pause or another resume meanwhile wins.
  static final String ESVAZIADA =
      """
      UPDATE entrega_dos_efeitos SET esvaziada_em = now()
       WHERE NOT pausada AND esvaziada_em IS NULL AND retomada_em = :retomadaEm
      """;

  /** The row as last read. */
  public record Estado(
      boolean pausada,
      OffsetDateTime pausadaEm,
      String pausadaPor,
      String motivo,
      OffsetDateTime retomadaEm,
      OffsetDateTime esvaziadaEm) {

    public ModoDaEntrega modo() {
      if (pausada) {
        return ModoDaEntrega.PAUSADA;
      }
      return retomadaEm != null && esvaziadaEm == null
          ? ModoDaEntrega.ESVAZIANDO
          : ModoDaEntrega.AO_VIVO;
    }
  }

  private final JdbcClient jdbc;
  private final MetricasDoPublicador metricas;
  private final Clock clock;
  private final Duration intervalo;
  private final boolean transmitir;
  // The hand-over between the stream and the drain (class comment).
  private final Object passagem = new Object();
  private volatile Estado estado;

  EntregaDosEfeitos(
      JdbcClient jdbc,
      MetricasDoPublicador metricas,
      PublicadorProperties propriedades,
      Clock clock) {
    this.jdbc = jdbc;
    this.metricas = metricas;
    this.clock = clock;
    this.intervalo = propriedades.entrega().intervalo();
    this.transmitir = propriedades.transmitir();
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar agenda) {
    if (transmitir) {
      agenda.addFixedDelayTask(this::atualizarSemFalhar, intervalo);
    }
  }

  private void atualizarSemFalhar() {
    try {
      atualizar();
    } catch (org.springframework.dao.DataAccessException e) {
      // The database is down: the stream fails too; the state read last stays in force.
      log.warn("Could not read the delivery state: {}", e.toString());
    }
  }

  /** Reads the state now; the supervisor does before each start of the engine. */
  public Estado atualizar() {
    Estado lido =
        jdbc.sql(LER)
            .query(
                (rs, n) ->
                    new Estado(
                        rs.getBoolean("pausada"),
                        rs.getObject("pausada_em", OffsetDateTime.class),
                        rs.getString("pausada_por"),
                        rs.getString("motivo"),
                        rs.getObject("retomada_em", OffsetDateTime.class),
                        rs.getObject("esvaziada_em", OffsetDateTime.class)))
            .single();
    Estado anterior;
    synchronized (passagem) {
      anterior = estado;
      estado = lido;
    }
    if (anterior != null && anterior.modo() != lido.modo()) {
      log.info(
          "Delivery to the picking system: {} -> {}{}",
          anterior.modo().tag(),
          lido.modo().tag(),
          lido.pausada() ? " (paused by " + lido.pausadaPor() + ": " + lido.motivo() + ")" : "");
    }
    metricas.entrega(
        lido.pausada(),
        lido.modo() == ModoDaEntrega.ESVAZIANDO,
        lido.pausada() && lido.pausadaEm() != null
            ? Duration.between(lido.pausadaEm().toInstant(), clock.instant())
            : Duration.ZERO);
    return lido;
  }

  /** The state as last read; null before the first read. */
  public Estado estado() {
    return estado;
  }

  /** The mode as last read; {@link ModoDaEntrega#PAUSADA} before the first read. */
  public ModoDaEntrega modo() {
    Estado visto = estado;
    return visto == null ? ModoDaEntrega.PAUSADA : visto.modo();
  }

  /**
   * The mode one batch of the stream runs in, decided under the hand-over's lock.
   *
   * @throws IllegalStateException before the state was first read: the batch fails and comes again
   *     rather than guess
   */
  public ModoDaEntrega modoDoLote() {
    synchronized (passagem) {
      if (estado == null) {
        throw new IllegalStateException("the delivery state was not read yet");
      }
      return estado.modo();
    }
  }

  /**
   * The end of a drain: when nothing is left to send ({@code nadaPendente} looks at the table),
   * records it and goes back to the stream, under the lock the stream's batches decide under.
   *
   * @return whether delivery is live now
   */
  public boolean aoVivoSeNadaPendente(BooleanSupplier nadaPendente) {
    synchronized (passagem) {
      Estado visto = estado;
      if (visto == null || visto.modo() != ModoDaEntrega.ESVAZIANDO) {
        return visto != null && visto.modo() == ModoDaEntrega.AO_VIVO;
      }
      if (!nadaPendente.getAsBoolean()) {
        return false;
      }
      int marcadas = jdbc.sql(ESVAZIADA).param("retomadaEm", visto.retomadaEm()).update();
      if (marcadas == 0) {
        // Paused or resumed again meanwhile: the next read says what holds now.
        return false;
      }
      estado =
          new Estado(
              false,
              visto.pausadaEm(),
              visto.pausadaPor(),
              visto.motivo(),
              visto.retomadaEm(),
              OffsetDateTime.now(clock));
      metricas.entrega(false, false, Duration.ZERO);
    }
    log.info("Delivery to the picking system: the backlog is sent; live from the stream again");
    return true;
  }
}
