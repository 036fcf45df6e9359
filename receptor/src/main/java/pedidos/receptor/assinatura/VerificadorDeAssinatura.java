package pedidos.receptor.assinatura;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.receptor.EsquemaDeAssinatura;
import pedidos.receptor.ReceptorProperties;

/**
 * Verifies a delivery's {@link Credencial} against every configured secret, in the schemes that are
 * switched on ({@code receptor.assinatura.esquemas}). How each scheme signs is the contract's
 * ({@link AssinaturaDeWebhook}), shared with whoever plays the store; what is switched on, and how
 * recent a Standard Webhooks timestamp must be, is this service's configuration.
 */
@Component
public final class VerificadorDeAssinatura {

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

  public Duration tolerancia() {
    return tolerancia;
  }

  /** Is this scheme switched on? A request signed only in a scheme that is off is refused. */
  public boolean aceita(EsquemaDeAssinatura esquema) {
    return esquemas.contains(esquema);
  }

  /**
   * Checked before the body is read: a Standard Webhooks timestamp that is not a number of seconds,
   * or that lies outside the tolerance, cannot be made valid by any body.
   */
  public boolean instanteAceito(Credencial.StandardWebhooks credencial) {
    return credencial.instanteAceito(relogio.instant(), tolerancia);
  }

  public boolean valida(byte[] corpo, Credencial credencial) {
    return aceita(credencial.esquema())
        && credencial.confere(corpo, assinatura, relogio.instant(), tolerancia);
  }
}
