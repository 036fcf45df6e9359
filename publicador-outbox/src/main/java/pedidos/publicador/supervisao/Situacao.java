package pedidos.publicador.supervisao;

import java.time.Instant;
import pedidos.publicador.motor.EstadoDoMotor;

/**
 * A snapshot of the relay for health checks and tests.
 *
 * @param emFalha an engine failed and none has streamed since (starting again or backing off)
 * @param execucoes engines started so far by this instance
 * @param falhas engines that stopped on a failure
 * @param ultimaFalha the last failure's message; null if none
 * @param perdasDaTrava times this instance lost the lease while relaying
 * @param travaPerdidaEm when it last did; null if never
 */
public record Situacao(
    Papel papel,
    EstadoDoMotor motor,
    Instant desde,
    boolean emFalha,
    int execucoes,
    int falhas,
    String ultimaFalha,
    int perdasDaTrava,
    Instant travaPerdidaEm) {}
