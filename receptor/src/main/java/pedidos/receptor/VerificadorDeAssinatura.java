package pedidos.receptor;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.stereotype.Component;

/**
 * {@code x-loja-signature} is the lowercase hex HMAC-SHA256 of the exact body bytes, under any one
 * of the configured secrets.
 */
@Component
final class VerificadorDeAssinatura {

  private static final String ALGORITMO = "HmacSHA256";
  private static final HexFormat HEX = HexFormat.of();

  /** One keyed Mac per secret, cloned per request: no provider lookup or key setup each time. */
  private final List<Mac> prototipos;

  VerificadorDeAssinatura(ReceptorProperties propriedades) {
    this.prototipos = propriedades.segredos().stream().map(VerificadorDeAssinatura::mac).toList();
    if (prototipos.isEmpty()) {
      // The properties are validated first; this guards a wiring mistake, not a user's.
      throw new IllegalStateException("no webhook secret configured (LOJA_WEBHOOK_SECRET)");
    }
  }

  boolean valida(byte[] corpo, String assinatura) {
    if (assinatura == null) {
      return false;
    }
    // Non-ASCII characters become '?', which no hex digest contains.
    byte[] recebida = assinatura.getBytes(StandardCharsets.US_ASCII);
    boolean valida = false;
    // Every secret is tried, whichever matches: the time taken says nothing about which one did.
    for (Mac prototipo : prototipos) {
      byte[] esperada = HEX.formatHex(hmac(prototipo, corpo)).getBytes(StandardCharsets.US_ASCII);
      valida |= MessageDigest.isEqual(esperada, recebida);
    }
    return valida;
  }

  private static Mac mac(String segredo) {
    try {
      Mac mac = Mac.getInstance(ALGORITMO);
      mac.init(new SecretKeySpec(segredo.getBytes(StandardCharsets.UTF_8), ALGORITMO));
      return mac;
    } catch (GeneralSecurityException e) {
      // HmacSHA256 is required of every JDK.
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(Mac prototipo, byte[] corpo) {
    try {
      // A Mac is not thread-safe; its clone starts from the keyed state.
      return ((Mac) prototipo.clone()).doFinal(corpo);
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("the JDK's HmacSHA256 can be cloned", e);
    }
  }
}
