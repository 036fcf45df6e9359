package pedidos.publicador.supervisao;

/** What this instance is doing about the lease. */
public enum Papel {
  /** Not started, or stopped. */
  PARADO,
  /**
   * Another instance holds the lease; this one tries again every {@code
   * publicador.trava.intervalo}.
   */
  RESERVA,
  /** Holds the lease: runs the engine and the fallback. */
  ATIVO
}
