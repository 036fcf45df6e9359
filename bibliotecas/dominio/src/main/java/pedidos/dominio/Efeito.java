package pedidos.dominio;

import java.util.List;

/** A side effect for the picking system, born of a real transition of an order's status. */
public enum Efeito {
  LIBERAR_SEPARACAO("liberar_separacao"),
  INTERROMPER_SEPARACAO("interromper_separacao"),
  NOTIFICAR_REEMBOLSO("notificar_reembolso");

  private final String codigo;

  Efeito(String codigo) {
    this.codigo = codigo;
  }

  /** The value stored in {@code outbox.efeito}. */
  public String codigo() {
    return codigo;
  }

  /** The effect stored as {@code codigo} in {@code outbox.efeito}. */
  public static Efeito doCodigo(String codigo) {
    for (Efeito efeito : values()) {
      if (efeito.codigo.equals(codigo)) {
        return efeito;
      }
    }
    throw new IllegalArgumentException("unknown effect code: " + codigo);
  }

  /**
   * The seed's {@code efeitosDaTransicao}: effects follow the transition that really happened, not
   * the type of the event received, so a payment applied after the cancellation releases nothing.
   *
   * @param de the status before, or {@code null} for an order seen for the first time
   */
  public static List<Efeito> daTransicao(Status de, Status para) {
    return switch (para) {
      case PAGO -> List.of(LIBERAR_SEPARACAO);
      case CANCELADO -> de == Status.PAGO ? List.of(INTERROMPER_SEPARACAO) : List.of();
      case REEMBOLSADO -> List.of(NOTIFICAR_REEMBOLSO);
      case CRIADO, ENVIADO -> List.of();
    };
  }
}
