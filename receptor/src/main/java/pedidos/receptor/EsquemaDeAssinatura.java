package pedidos.receptor;

/**
 * How a delivery proves it comes from the store: the values of {@code
 * receptor.assinatura.esquemas}. Beside the properties that name it, so that the configuration
 * depends on no feature.
 */
public enum EsquemaDeAssinatura {
  /** {@code x-loja-signature}: lowercase hex HMAC-SHA256 of the exact body bytes. */
  LOJA,
  /**
   * <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: {@code webhook-signature}
   * holds {@code v1,<base64>} HMAC-SHA256 signatures of {@code id.timestamp.body}, and {@code
   * webhook-timestamp} must be recent, so a captured delivery expires.
   */
  STANDARD_WEBHOOKS
}
