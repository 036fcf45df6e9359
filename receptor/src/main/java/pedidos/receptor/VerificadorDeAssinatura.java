package pedidos.receptor;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import pedidos.contrato.AssinaturaDeWebhook;

/**
 * Verifies a delivery's {@link Credencial} against every configured secret, in the schemes that are
 * switched on ({@code receptor.assinatura.esquemas}). How each scheme signs is the contract's
 * ({@link AssinaturaDeWebhook}), shared with whoever plays the store; what is switched on, and how
 * recent a Standard Webhooks timestamp must be, is this service's configuration.
 */
@Component
final class VerificadorDeAssinatura {

  private final AssinaturaDeWebhook assinatura;
  private final Set<EsquemaDeAssinatura> esquemas;
  private final Duration tolerancia;
  private final Clock relogio;

  @Autowired
  VerificadorDeAssinatura(ReceptorProperties propriedades, Clock relogio) {
    this(
        propriedades.segredos().stream().map(AssinaturaDeWebhook::chave).toList(),
        propriedades.assinatura(),
        relogio);
  }

  /** With keys as they are: the properties have already refused short ones. */
  VerificadorDeAssinatura(
      List<byte[]> chaves, ReceptorProperties.Assinatura assinatura, Clock relogio) {
    if (chaves.isEmpty()) {
      // The properties are validated first; this guards a wiring mistake, not a user's.
      throw new IllegalStateException("no webhook secret configured (LOJA_WEBHOOK_SECRET)");
    }
    this.assinatura = AssinaturaDeWebhook.dasChaves(chaves);
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
    return AssinaturaDeWebhook.instanteAceito(credencial.instante(), relogio.instant(), tolerancia);
  }

  boolean valida(byte[] corpo, Credencial credencial) {
    if (credencial instanceof Credencial.Loja loja) {
      return aceita(EsquemaDeAssinatura.LOJA) && assinatura.confereDaLoja(corpo, loja.assinatura());
    }
    Credencial.StandardWebhooks standard = (Credencial.StandardWebhooks) credencial;
    return aceita(EsquemaDeAssinatura.STANDARD_WEBHOOKS)
        && instanteAceito(standard)
        && assinatura.confereStandard(
            standard.id(), standard.instante(), standard.assinaturas(), corpo);
  }
}
