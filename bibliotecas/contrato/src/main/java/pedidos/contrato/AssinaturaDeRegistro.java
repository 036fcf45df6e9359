package pedidos.contrato;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature the relay puts on every Kafka record it writes, and the check the aplicador (and
 * the picking system, if it wants) makes before trusting one. Kafka is a second way into the
 * pipeline: without it, anyone who can reach the broker could write an {@code order.paid} that the
 * aplicador would store and apply. The contract, in one place so that signer and verifier cannot
 * drift:
 *
 * <pre>
 * header {@value TopicosDoKafka#CABECALHO_DE_ASSINATURA}: v1,&lt;base64 HMAC-SHA256(key, len(topic) topic len(key) key len(value) value)&gt;
 * </pre>
 *
 * where each {@code len} is a 4-byte big-endian length ({@code -1} for an absent key or value, with
 * no bytes after it) and the topic, key and value are their UTF-8 bytes as they travel. The topic
 * is signed so that a genuine record cannot be copied to another topic and trusted there; the
 * lengths make the encoding unambiguous (no shifting bytes between key and value).
 *
 * <p>Several keys may be configured for rotation: the first signs, any one verifies.
 */
public final class AssinaturaDeRegistro {

  /** The environment variable every signing or verifying service reads its keys from. */
  public static final String VARIAVEL = "PEDIDOS_KAFKA_ASSINATURA";

  /**
   * Shorter keys could be guessed offline from one captured record; 32 bytes is what HMAC-SHA256
   * can use in full.
   */
  public static final int BYTES_MINIMOS_DA_CHAVE = 32;

  private static final String VERSAO = "v1";
  private static final String ALGORITMO = "HmacSHA256";

  /** Why a record was refused, or that it was not. */
  public enum Veredicto {
    VALIDA("signature valid"),
    AUSENTE("record not signed: no " + TopicosDoKafka.CABECALHO_DE_ASSINATURA + " header"),
    MALFORMADA(
        "malformed "
            + TopicosDoKafka.CABECALHO_DE_ASSINATURA
            + " header (expected "
            + VERSAO
            + ",<base64>)"),
    INVALIDA("wrong signature: not signed by the relay with a configured key");

    private final String motivo;

    Veredicto(String motivo) {
      this.motivo = motivo;
    }

    /** A sentence for logs and the dead-letter topic's reason header. */
    public String motivo() {
      return motivo;
    }
  }

  private final List<SecretKeySpec> chaves;

  private AssinaturaDeRegistro(List<SecretKeySpec> chaves) {
    this.chaves = chaves;
  }

  /**
   * @param chaves the configured keys, as text (their UTF-8 bytes are the HMAC key); the first
   *     signs
   * @throws IllegalArgumentException naming {@value #VARIAVEL} when there is none, or one is blank
   *     or shorter than {@value #BYTES_MINIMOS_DA_CHAVE} bytes
   */
  public static AssinaturaDeRegistro de(List<String> chaves) {
    if (chaves == null || chaves.isEmpty()) {
      throw new IllegalArgumentException(
          "no Kafka record signing key configured: set "
              + VARIAVEL
              + " to one or more comma-separated keys of at least "
              + BYTES_MINIMOS_DA_CHAVE
              + " bytes, the same in the relay and the aplicador (generate one with: openssl rand"
              + " -hex 32)");
    }
    List<SecretKeySpec> especificacoes = new ArrayList<>(chaves.size());
    for (int i = 0; i < chaves.size(); i++) {
      String chave = chaves.get(i) == null ? "" : chaves.get(i).strip();
      byte[] bytes = chave.getBytes(StandardCharsets.UTF_8);
      if (bytes.length < BYTES_MINIMOS_DA_CHAVE) {
        throw new IllegalArgumentException(
            VARIAVEL
                + ": key number "
                + (i + 1)
                + " has "
                + bytes.length
                + " bytes; each key must have at least "
                + BYTES_MINIMOS_DA_CHAVE
                + " (generate one with: openssl rand -hex 32)");
      }
      especificacoes.add(new SecretKeySpec(bytes, ALGORITMO));
    }
    return new AssinaturaDeRegistro(List.copyOf(especificacoes));
  }

  /**
   * @return the header's value for this record, signed with the first key
   */
  public String assinar(String topico, byte[] chave, byte[] valor) {
    return VERSAO
        + ","
        + Base64.getEncoder().encodeToString(hmac(chaves.get(0), topico, chave, valor));
  }

  /**
   * @param cabecalho the header's value as received, or null when the record has none
   */
  public Veredicto verificar(String topico, byte[] chave, byte[] valor, byte[] cabecalho) {
    if (cabecalho == null) {
      return Veredicto.AUSENTE;
    }
    String texto = new String(cabecalho, StandardCharsets.UTF_8);
    if (!texto.startsWith(VERSAO + ",")) {
      return Veredicto.MALFORMADA;
    }
    byte[] recebida;
    try {
      recebida = Base64.getDecoder().decode(texto.substring(VERSAO.length() + 1));
    } catch (IllegalArgumentException e) {
      return Veredicto.MALFORMADA;
    }
    for (SecretKeySpec especificacao : chaves) {
      // Constant time: a byte-by-byte early exit would let a forger learn the signature by timing.
      if (MessageDigest.isEqual(recebida, hmac(especificacao, topico, chave, valor))) {
        return Veredicto.VALIDA;
      }
    }
    return Veredicto.INVALIDA;
  }

  private static byte[] hmac(
      SecretKeySpec especificacao, String topico, byte[] chave, byte[] valor) {
    try {
      Mac mac = Mac.getInstance(ALGORITMO);
      mac.init(especificacao);
      mac.update(campo(topico.getBytes(StandardCharsets.UTF_8)));
      mac.update(campo(chave));
      mac.update(campo(valor));
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      // HmacSHA256 is required of every Java platform: this cannot happen on a working JVM.
      throw new IllegalStateException(ALGORITMO + " unavailable", e);
    }
  }

  private static byte[] campo(byte[] bytes) {
    if (bytes == null) {
      return ByteBuffer.allocate(4).putInt(-1).array();
    }
    return ByteBuffer.allocate(4 + bytes.length).putInt(bytes.length).put(bytes).array();
  }

  @Override
  public String toString() {
    return "AssinaturaDeRegistro[" + chaves.size() + " key(s), ***]";
  }
}
