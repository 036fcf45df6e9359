package pedidos.simulador;

import pedidos.dominio.Status;

/**
 * The provider's names for our statuses. The reverse mapping, the one the system applies, is the
 * domain's ({@link Status#doTipoDeEvento}, {@link Status#daApi}); tests check both agree.
 */
final class CodigosDaLoja {

  private CodigosDaLoja() {}

  /** The API's {@code status} and the webhook's {@code data.status}. */
  static String statusDaApi(Status status) {
    return switch (status) {
      case CRIADO -> "open";
      case PAGO -> "paid";
      case ENVIADO -> "shipped";
      case CANCELADO -> "canceled";
      case REEMBOLSADO -> "refunded";
    };
  }

  /** The webhook's {@code type}. */
  static String tipoDoEvento(Status status) {
    return switch (status) {
      case CRIADO -> "order.created";
      case PAGO -> "order.paid";
      case ENVIADO -> "order.shipped";
      case CANCELADO -> "order.canceled";
      case REEMBOLSADO -> "order.refunded";
    };
  }
}
