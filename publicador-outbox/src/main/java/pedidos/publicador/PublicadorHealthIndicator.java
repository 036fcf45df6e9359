package pedidos.publicador;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.publicador.entrega.EntregaDosEfeitos;
import pedidos.publicador.mortos.RegistroDeMortos;
import pedidos.publicador.motor.EstadoDoMotor;
import pedidos.publicador.supervisao.Situacao;
import pedidos.publicador.supervisao.SupervisorDoPublicador;

/**
 * The relay in {@code /actuator/health} under {@code publicador}: active or standby, the engine's
 * state, and the rows this process dead-lettered ({@code mortos}, {@code ultimoMorto}: the table,
 * key and LSN of the latest, never its content). Details are shown to operators only.
 *
 * <ul>
 *   <li>UP: streaming, or standing by (a standby is doing its job);
 *   <li>DOWN: the active instance's engine failed and none has streamed since;
 *   <li>OUT_OF_SERVICE: stopped, or active and still starting. Until the engine streams, its slot
 *       may not exist yet, and rows committed before it exists reach Kafka only through the
 *       fallback, so "healthy" is what a launcher should wait for before sending traffic.
 * </ul>
 */
@Component
class PublicadorHealthIndicator implements HealthIndicator {

  private final SupervisorDoPublicador supervisor;
  private final RegistroDeMortos mortos;
  private final PublicadorProperties propriedades;
  private final EntregaDosEfeitos entrega;

  PublicadorHealthIndicator(
      SupervisorDoPublicador supervisor,
      RegistroDeMortos mortos,
      PublicadorProperties propriedades,
      EntregaDosEfeitos entrega) {
    this.supervisor = supervisor;
    this.mortos = mortos;
    this.propriedades = propriedades;
    this.entrega = entrega;
  }

  @Override
  public Health health() {
    Situacao situacao = supervisor.situacao();
    Health.Builder saude =
        switch (situacao.papel()) {
          case PARADO -> Health.outOfService();
          case RESERVA -> Health.up();
          case ATIVO -> {
            if (situacao.emFalha()) {
              yield Health.down();
            }
            yield situacao.motor() == EstadoDoMotor.TRANSMITINDO
                ? Health.up()
                : Health.outOfService();
          }
        };
    saude
        .withDetail("papel", situacao.papel())
        .withDetail("motor", situacao.motor())
        .withDetail("desde", situacao.desde())
        .withDetail("slot", propriedades.slot())
        .withDetail("execucoes", situacao.execucoes())
        .withDetail("falhas", situacao.falhas())
        // Dead letters do not make the relay unhealthy (it streams on); they are an ops task, shown
        // here and alerted on through publicador_mortos_abertos.
        .withDetail("mortos", mortos.registrados());
    // A deliberate pause leaves the status as it is: the relay does what it was told.
    if (entrega.estado() != null) {
      saude.withDetail("entrega", entrega.modo().tag());
    }
    if (situacao.travaPerdidaEm() != null) {
      // A relay that lost the lease stands by and competes for it again: UP as a standby, but an
      // operator sees that it happened and when.
      saude
          .withDetail("perdasDaTrava", situacao.perdasDaTrava())
          .withDetail("travaPerdidaEm", situacao.travaPerdidaEm());
    }
    if (situacao.ultimaFalha() != null) {
      saude.withDetail("ultimaFalha", situacao.ultimaFalha());
    }
    if (mortos.ultimo() != null) {
      saude.withDetail("ultimoMorto", mortos.ultimo());
    }
    return saude.build();
  }
}
