package pedidos.simulador;

/**
 * What the deliverer did.
 *
 * @param eventos events of the truth
 * @param perdidos events the store never delivered (by plan)
 * @param eventosEnviados distinct events sent at least once
 * @param duplicatasEnviadas copies sent beyond the first of each event
 * @param envios HTTP requests, redeliveries included
 * @param reenvios requests repeating a copy after a failure or timeout
 * @param falhas answers that asked for a redelivery (5xx, 408, 429) and timeouts
 * @param confirmados events acknowledged with a 2xx: stored by the system
 * @param recusados events answered with another 4xx: not redelivered
 * @param semConfirmacao events still unacknowledged when the delivery deadline passed
 */
public record ResumoDaEntrega(
    int eventos,
    int perdidos,
    int eventosEnviados,
    long duplicatasEnviadas,
    long envios,
    long reenvios,
    long falhas,
    int confirmados,
    int recusados,
    int semConfirmacao,
    long duracaoEmMs) {}
