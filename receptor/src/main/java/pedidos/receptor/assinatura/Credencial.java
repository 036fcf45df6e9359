package pedidos.receptor.assinatura;

import java.time.Duration;
import java.time.Instant;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.receptor.EsquemaDeAssinatura;

/**
 * What a delivery carries to prove it comes from the store, by scheme. Each scheme checks itself
 * ({@link #confere}), so a new one cannot be added without saying how it is verified; whether its
 * scheme is switched on is the {@link VerificadorDeAssinatura}'s to say.
 */
public sealed interface Credencial {

  EsquemaDeAssinatura esquema();

  /**
   * Do these headers sign this body under one of the keys, at {@code agora}? Called by {@link
   * VerificadorDeAssinatura} only.
   */
  boolean confere(byte[] corpo, AssinaturaDeWebhook chaves, Instant agora, Duration tolerancia);

  /** {@code x-loja-signature}. */
  record Loja(String assinatura) implements Credencial {

    @Override
    public EsquemaDeAssinatura esquema() {
      return EsquemaDeAssinatura.LOJA;
    }

    /** The body's HMAC; a store signature carries no time, so none is checked. */
    @Override
    public boolean confere(
        byte[] corpo, AssinaturaDeWebhook chaves, Instant agora, Duration tolerancia) {
      return chaves.confereDaLoja(corpo, assinatura);
    }
  }

  /**
   * Standard Webhooks' three headers, as received.
   *
   * @param assinaturas space-separated {@code v1,<base64>} entries; any one may match
   */
  record StandardWebhooks(String id, String instante, String assinaturas) implements Credencial {

    @Override
    public EsquemaDeAssinatura esquema() {
      return EsquemaDeAssinatura.STANDARD_WEBHOOKS;
    }

    @Override
    public boolean confere(
        byte[] corpo, AssinaturaDeWebhook chaves, Instant agora, Duration tolerancia) {
      return instanteAceito(agora, tolerancia)
          && chaves.confereStandard(id, instante, assinaturas, corpo);
    }

    /**
     * A timestamp that is not a number of seconds, or that lies outside the tolerance, cannot be
     * made valid by any body.
     */
    boolean instanteAceito(Instant agora, Duration tolerancia) {
      return AssinaturaDeWebhook.instanteAceito(instante, agora, tolerancia);
    }
  }
}
