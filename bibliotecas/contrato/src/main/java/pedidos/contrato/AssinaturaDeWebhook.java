package pedidos.contrato;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How a webhook proves it comes from the store, in every scheme the receptor accepts: signing (the
 * store, and the simulator, the local launcher and the benchmarks that play it) and verifying (the
 * receptor), in one place so that they cannot drift.
 *
 * <ul>
 *   <li><b>The store's</b>: {@value #CABECALHO_DA_LOJA} = the lowercase hex HMAC-SHA256 of the
 *       exact body bytes.
 *   <li><a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: {@value #CABECALHO_ID},
 *       {@value #CABECALHO_INSTANTE} (seconds since the epoch) and {@value #CABECALHO_ASSINATURA} =
 *       one or more space-separated {@code v1,<base64>} HMAC-SHA256 of {@code id.timestamp.body};
 *       any one may match (the sender rotates keys), and the timestamp must be recent ({@link
 *       #instanteAceito}), so a captured delivery expires.
 * </ul>
 *
 * <p>A secret written {@code whsec_<base64>} (Standard Webhooks' format) is used as its decoded
 * bytes, any other as its UTF-8 bytes. Several secrets may be given for rotation: the first signs,
 * any one verifies, and every one is always tried, so the time taken says nothing about which
 * matched. Thread-safe.
 */
public final class AssinaturaDeWebhook {

  /** The store's header. */
  public static final String CABECALHO_DA_LOJA = "x-loja-signature";

  /** Standard Webhooks: the delivery's id, signed with the body. */
  public static final String CABECALHO_ID = "webhook-id";

  /** Standard Webhooks: seconds since the epoch, signed with the body. */
  public static final String CABECALHO_INSTANTE = "webhook-timestamp";

  /** Standard Webhooks: {@code v1,<base64>} signatures, space-separated. */
  public static final String CABECALHO_ASSINATURA = "webhook-signature";

  /** How Standard Webhooks writes a secret: this prefix, then the key's bytes in base64. */
  public static final String PREFIXO_DA_CHAVE = "whsec_";

  /** More signatures than this in one header is an attempt to make us compute, not a rotation. */
  public static final int ASSINATURAS_MAXIMAS = 10;

  private static final String ALGORITMO = "HmacSHA256";
  private static final String VERSAO_STANDARD = "v1,";
  private static final HexFormat HEX = HexFormat.of();

  /** One keyed Mac per secret, cloned per use: no provider lookup or key setup each time. */
  private final List<Mac> prototipos;

  private AssinaturaDeWebhook(List<Mac> prototipos) {
    this.prototipos = prototipos;
  }

  /**
   * @param segredos as configured; the first signs
   * @throws IllegalArgumentException when there is none, or one is empty or a malformed {@code
   *     whsec_}
   */
  public static AssinaturaDeWebhook dosSegredos(List<String> segredos) {
    List<byte[]> chaves = new ArrayList<>(segredos.size());
    for (String segredo : segredos) {
      chaves.add(chave(segredo));
    }
    return dasChaves(chaves);
  }

  /** With one secret, as the store signs. */
  public static AssinaturaDeWebhook doSegredo(String segredo) {
    return dosSegredos(List.of(segredo));
  }

  /**
   * @param chaves HMAC keys as they are ({@link #chave}); the first signs
   */
  public static AssinaturaDeWebhook dasChaves(List<byte[]> chaves) {
    if (chaves.isEmpty()) {
      throw new IllegalArgumentException("the webhook secret is required");
    }
    List<Mac> prototipos = new ArrayList<>(chaves.size());
    for (byte[] chave : chaves) {
      if (chave.length == 0) {
        throw new IllegalArgumentException("a webhook secret cannot be empty");
      }
      prototipos.add(mac(chave));
    }
    return new AssinaturaDeWebhook(List.copyOf(prototipos));
  }

  /**
   * The HMAC key of a secret: {@code whsec_<base64>} decoded, any other secret's UTF-8 bytes.
   *
   * @throws IllegalArgumentException when a {@code whsec_} secret is not base64 after the prefix
   */
  public static byte[] chave(String segredo) {
    if (segredo.startsWith(PREFIXO_DA_CHAVE)) {
      try {
        return Base64.getDecoder().decode(segredo.substring(PREFIXO_DA_CHAVE.length()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "a secret starting with " + PREFIXO_DA_CHAVE + " must be base64 after the prefix");
      }
    }
    return segredo.getBytes(StandardCharsets.UTF_8);
  }

  /** The store's {@value #CABECALHO_DA_LOJA} for this body, with the first secret. */
  public String daLoja(byte[] corpo) {
    return HEX.formatHex(clonar(prototipos.get(0)).doFinal(corpo));
  }

  /**
   * The {@value #CABECALHO_ASSINATURA} for this delivery, with the first secret.
   *
   * @param instante the {@value #CABECALHO_INSTANTE} sent with it, in seconds
   */
  public String standard(String id, String instante, byte[] corpo) {
    return VERSAO_STANDARD
        + Base64.getEncoder().encodeToString(standardSemVersao(0, id, instante, corpo));
  }

  /**
   * @param assinatura the {@value #CABECALHO_DA_LOJA} received, or {@code null}
   * @return whether it is the lowercase hex signature of exactly these bytes with some secret
   */
  public boolean confereDaLoja(byte[] corpo, String assinatura) {
    if (assinatura == null) {
      return false;
    }
    // Non-ASCII characters become '?', which no hex digest contains.
    byte[] recebida = assinatura.getBytes(StandardCharsets.US_ASCII);
    boolean valida = false;
    for (Mac prototipo : prototipos) {
      byte[] esperada =
          HEX.formatHex(clonar(prototipo).doFinal(corpo)).getBytes(StandardCharsets.US_ASCII);
      valida |= MessageDigest.isEqual(esperada, recebida);
    }
    return valida;
  }

  /**
   * The signature alone: whether the timestamp is recent is {@link #instanteAceito}'s to say, and
   * the receptor asks it first, before the body is read.
   *
   * @param assinaturas the {@value #CABECALHO_ASSINATURA} received: any one entry may match
   */
  public boolean confereStandard(String id, String instante, String assinaturas, byte[] corpo) {
    if (id == null || instante == null || assinaturas == null) {
      return false;
    }
    String[] entradas = assinaturas.trim().split(" +", ASSINATURAS_MAXIMAS + 1);
    if (entradas.length > ASSINATURAS_MAXIMAS) {
      return false;
    }
    boolean valida = false;
    for (int i = 0; i < prototipos.size(); i++) {
      // ASCII bytes of the base64 text.
      byte[] esperada = Base64.getEncoder().encode(standardSemVersao(i, id, instante, corpo));
      for (String entrada : entradas) {
        if (entrada.startsWith(VERSAO_STANDARD)) {
          byte[] recebida =
              entrada.substring(VERSAO_STANDARD.length()).getBytes(StandardCharsets.US_ASCII);
          valida |= MessageDigest.isEqual(esperada, recebida);
        }
      }
    }
    return valida;
  }

  /**
   * Whether a Standard Webhooks timestamp is a number of seconds within the tolerance of now. A
   * timestamp that is not cannot be made valid by any body.
   */
  public static boolean instanteAceito(String instante, Instant agora, Duration tolerancia) {
    if (instante == null) {
      return false;
    }
    long segundos;
    try {
      segundos = Long.parseLong(instante.trim());
    } catch (NumberFormatException e) {
      return false;
    }
    return Math.abs(agora.getEpochSecond() - segundos) <= tolerancia.toSeconds();
  }

  private byte[] standardSemVersao(int segredo, String id, String instante, byte[] corpo) {
    Mac mac = clonar(prototipos.get(segredo));
    mac.update((id + "." + instante + ".").getBytes(StandardCharsets.UTF_8));
    return mac.doFinal(corpo);
  }

  private static Mac mac(byte[] chave) {
    try {
      Mac mac = Mac.getInstance(ALGORITMO);
      mac.init(new SecretKeySpec(chave, ALGORITMO));
      return mac;
    } catch (GeneralSecurityException e) {
      // HmacSHA256 is required of every Java platform.
      throw new IllegalStateException(ALGORITMO + " unavailable", e);
    }
  }

  private static Mac clonar(Mac prototipo) {
    try {
      // A Mac is not thread-safe; its clone starts from the keyed state.
      return (Mac) prototipo.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("the JDK's " + ALGORITMO + " can be cloned", e);
    }
  }

  @Override
  public String toString() {
    return "AssinaturaDeWebhook[" + prototipos.size() + " secret(s), ***]";
  }
}
