package pedidos.simulador;

import static pedidos.dominio.Status.CANCELADO;
import static pedidos.dominio.Status.CRIADO;
import static pedidos.dominio.Status.ENVIADO;
import static pedidos.dominio.Status.PAGO;
import static pedidos.dominio.Status.REEMBOLSADO;

import java.util.List;
import pedidos.dominio.Status;

/**
 * The lifecycles the store puts an order through, as the seed describes them, including the ones
 * that break its rules (a terminal status left) and the late payment after a cancellation.
 */
enum Ciclo {
  PAGO_ENVIADO(List.of(CRIADO, PAGO, ENVIADO)),
  CANCELADO_SEM_PAGAMENTO(List.of(CRIADO, CANCELADO)),
  PAGO_CANCELADO(List.of(CRIADO, PAGO, CANCELADO)),
  PAGO_CANCELADO_REEMBOLSADO(List.of(CRIADO, PAGO, CANCELADO, REEMBOLSADO)),
  // The provider sometimes never announces the creation: the first fact is the payment.
  PAGO_ENVIADO_REEMBOLSADO(List.of(PAGO, ENVIADO, REEMBOLSADO)),
  // Terminal regressions: the provider moves a canceled or refunded order on.
  ENVIADO_DEPOIS_DE_CANCELADO(List.of(CRIADO, PAGO, CANCELADO, ENVIADO)),
  PAGO_DEPOIS_DE_REEMBOLSADO(List.of(CRIADO, PAGO, REEMBOLSADO, PAGO)),
  // A payment that happened after the cancellation: newer, but it must release nothing.
  PAGAMENTO_DEPOIS_DO_CANCELAMENTO(List.of(CRIADO, CANCELADO, PAGO)),
  // The seed's late payment: it happened before the cancellation and is delivered after it.
  PAGAMENTO_ATRASADO(List.of(CRIADO, PAGO, CANCELADO), 1);

  private final List<Status> statuses;
  private final int posicaoAtrasada;

  Ciclo(List<Status> statuses) {
    this(statuses, -1);
  }

  Ciclo(List<Status> statuses, int posicaoAtrasada) {
    this.statuses = statuses;
    this.posicaoAtrasada = posicaoAtrasada;
  }

  List<Status> statuses() {
    return statuses;
  }

  /** The fact that the provider delivers only after the one that follows it; -1 for none. */
  int posicaoAtrasada() {
    return posicaoAtrasada;
  }
}
