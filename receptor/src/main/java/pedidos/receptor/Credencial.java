package pedidos.receptor;

/** What a delivery carries to prove it comes from the store, by scheme. */
sealed interface Credencial {

  /** {@code x-loja-signature}. */
  record Loja(String assinatura) implements Credencial {}

  /**
   * Standard Webhooks' three headers, as received.
   *
   * @param assinaturas space-separated {@code v1,<base64>} entries; any one may match
   */
  record StandardWebhooks(String id, String instante, String assinaturas) implements Credencial {}
}
