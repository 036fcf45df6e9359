package pedidos.receptor;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Verifies a delivery's {@link Credencial} against every configured secret, in the schemes that are
 * switched on ({@code receptor.assinatura.esquemas}):
 *
 * <ul>
 *   <li>{@code x-loja-signature}: the lowercase hex HMAC-SHA256 of the exact body bytes;
 *   <li>Standard Webhooks: {@code v1,<base64>} HMAC-SHA256 of {@code webhook-id.webhook-timestamp.}
 *       followed by the body, with a timestamp within {@code receptor.assinatura.tolerancia}.
 * </ul>
 */
@Component
final class VerificadorDeAssinatura {

  private static final String ALGORITMO = "HmacSHA256";
  private static final HexFormat HEX = HexFormat.of();
  private static final String VERSAO_STANDARD = "v1,";

  /** More signatures than this in one header is an attempt to make us compute, not a rotation. */
  private static final int ASSINATURAS_MAXIMAS = 10;

  /** One keyed Mac per secret, cloned per request: no provider lookup or key setup each time. */
  private final List<Mac> prototipos;

  private final Set<EsquemaDeAssinatura> esquemas;
  private final Duration tolerancia;
  private final Clock relogio;

  @Autowired
  VerificadorDeAssinatura(ReceptorProperties propriedades, Clock relogio) {
    this(
        propriedades.segredos().stream().map(ChaveDeAssinatura::de).toList(),
        propriedades.assinatura(),
        relogio);
  }

  /** With keys as they are: the properties have already refused short ones. */
  VerificadorDeAssinatura(
      List<byte[]> chaves, ReceptorProperties.Assinatura assinatura, Clock relogio) {
    this.prototipos = chaves.stream().map(VerificadorDeAssinatura::mac).toList();
    if (prototipos.isEmpty()) {
      // The properties are validated first; this guards a wiring mistake, not a user's.
      throw new IllegalStateException("no webhook secret configured (LOJA_WEBHOOK_SECRET)");
    }
    this.esquemas = Set.copyOf(assinatura.esquemas());
    this.tolerancia = assinatura.tolerancia();
    this.relogio = relogio;
  }

  Duration tolerancia() {
    return tolerancia;
  }

  /** Is this scheme switched on? A request signed only in a scheme that is off is refused. */
  boolean aceita(EsquemaDeAssinatura esquema) {
    return esquemas.contains(esquema);
  }

  /**
   * Checked before the body is read: a Standard Webhooks timestamp that is not a number of seconds,
   * or that lies outside the tolerance, cannot be made valid by any body.
   */
  boolean instanteAceito(Credencial.StandardWebhooks credencial) {
    long segundos;
    try {
      segundos = Long.parseLong(credencial.instante().trim());
    } catch (NumberFormatException e) {
      return false;
    }
    Instant agora = relogio.instant();
    long diferenca = Math.abs(agora.getEpochSecond() - segundos);
    return diferenca <= tolerancia.toSeconds();
  }

  boolean valida(byte[] corpo, Credencial credencial) {
    if (credencial instanceof Credencial.Loja loja) {
      return aceita(EsquemaDeAssinatura.LOJA) && validaLoja(corpo, loja);
    }
    Credencial.StandardWebhooks standard = (Credencial.StandardWebhooks) credencial;
    return aceita(EsquemaDeAssinatura.STANDARD_WEBHOOKS)
        && instanteAceito(standard)
        && validaStandard(corpo, standard);
  }

  private boolean validaLoja(byte[] corpo, Credencial.Loja credencial) {
    if (credencial.assinatura() == null) {
      return false;
    }
    // Non-ASCII characters become '?', which no hex digest contains.
    byte[] recebida = credencial.assinatura().getBytes(StandardCharsets.US_ASCII);
    boolean valida = false;
    // Every secret is tried, whichever matches: the time taken says nothing about which one did.
    for (Mac prototipo : prototipos) {
      byte[] esperada = HEX.formatHex(hmac(prototipo, corpo)).getBytes(StandardCharsets.US_ASCII);
      valida |= MessageDigest.isEqual(esperada, recebida);
    }
    return valida;
  }

  private boolean validaStandard(byte[] corpo, Credencial.StandardWebhooks credencial) {
    byte[] prefixo =
        (credencial.id() + "." + credencial.instante() + ".").getBytes(StandardCharsets.UTF_8);
    String[] entradas = credencial.assinaturas().trim().split(" +", ASSINATURAS_MAXIMAS + 1);
    if (entradas.length > ASSINATURAS_MAXIMAS) {
      return false;
    }
    boolean valida = false;
    for (Mac prototipo : prototipos) {
      Mac mac = clonar(prototipo);
      mac.update(prefixo);
      byte[] esperada =
          Base64.getEncoder().encode(mac.doFinal(corpo)); // ASCII bytes of the base64 text
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

  private static Mac mac(byte[] chave) {
    try {
      Mac mac = Mac.getInstance(ALGORITMO);
      mac.init(new SecretKeySpec(chave, ALGORITMO));
      return mac;
    } catch (GeneralSecurityException e) {
      // HmacSHA256 is required of every JDK.
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(Mac prototipo, byte[] corpo) {
    return clonar(prototipo).doFinal(corpo);
  }

  private static Mac clonar(Mac prototipo) {
    try {
      // A Mac is not thread-safe; its clone starts from the keyed state.
      return (Mac) prototipo.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("the JDK's HmacSHA256 can be cloned", e);
    }
  }
}
