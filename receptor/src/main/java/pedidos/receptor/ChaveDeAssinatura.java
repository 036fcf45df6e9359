package pedidos.receptor;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The HMAC key of a configured secret. Standard Webhooks writes keys as {@code whsec_<base64>}; any
 * other secret is used as its UTF-8 bytes, as the store's scheme always did.
 */
final class ChaveDeAssinatura {

  static final String PREFIXO_STANDARD_WEBHOOKS = "whsec_";

  private ChaveDeAssinatura() {}

  static byte[] de(String segredo) {
    if (segredo.startsWith(PREFIXO_STANDARD_WEBHOOKS)) {
      try {
        return Base64.getDecoder().decode(segredo.substring(PREFIXO_STANDARD_WEBHOOKS.length()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "LOJA_WEBHOOK_SECRET: a secret starting with whsec_ must be base64 after the prefix");
      }
    }
    return segredo.getBytes(StandardCharsets.UTF_8);
  }
}
