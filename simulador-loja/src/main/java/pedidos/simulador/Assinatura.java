package pedidos.simulador;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** {@code x-loja-signature}: the lowercase hex HMAC-SHA256 of the exact body bytes. */
final class Assinatura {

  static final String CABECALHO = "x-loja-signature";
  private static final String ALGORITMO = "HmacSHA256";

  private final SecretKeySpec chave;

  Assinatura(String segredo) {
    if (segredo == null || segredo.isEmpty()) {
      throw new IllegalArgumentException("the webhook secret is required");
    }
    this.chave = new SecretKeySpec(segredo.getBytes(StandardCharsets.UTF_8), ALGORITMO);
  }

  String de(byte[] corpo) {
    // A Mac per call: instances are not thread-safe and the deliverer signs from many threads.
    try {
      Mac mac = Mac.getInstance(ALGORITMO);
      mac.init(chave);
      return HexFormat.of().formatHex(mac.doFinal(corpo));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required of every JDK", e);
    }
  }

  boolean confere(byte[] corpo, String assinatura) {
    return assinatura != null
        && MessageDigest.isEqual(
            de(corpo).getBytes(StandardCharsets.US_ASCII),
            assinatura.getBytes(StandardCharsets.US_ASCII));
  }
}
