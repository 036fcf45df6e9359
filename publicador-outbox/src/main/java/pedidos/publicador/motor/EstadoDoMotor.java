package pedidos.publicador.motor;

/** The state of this instance's Debezium engine. */
public enum EstadoDoMotor {
  PARADO,
  /** Creating topics, connecting, opening the slot. */
  INICIANDO,
  /** Polling the stream. */
  TRANSMITINDO,
  /** Stopped by a failure; restarts after the back-off. */
  AGUARDANDO_REINICIO,
  /**
   * Stopping because the lease was lost: it sends nothing more (the fence), the relay stands by.
   */
  PARANDO
}
