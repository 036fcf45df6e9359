package pedidos.receptor.entrada;

import org.springframework.stereotype.Service;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.receptor.EsquemaDeAssinatura;
import pedidos.receptor.assinatura.Credencial;
import pedidos.receptor.assinatura.VerificadorDeAssinatura;
import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.desfecho.TipoDeRecusa;
import pedidos.receptor.evento.EventoRecebido;
import pedidos.receptor.evento.LeitorDeEvento;
import pedidos.receptor.gravacao.FalhaDoBanco;
import pedidos.receptor.gravacao.Gravador;
import pedidos.receptor.gravacao.ObservadorDoReceptor;
import pedidos.receptor.gravacao.Quarentena;

/**
 * Verify, store, answer. Nothing is stored before the signature is checked; a signed body that is
 * not a storable event is kept in quarantine before the 400 goes out, so the provider's bytes are
 * never lost (if the quarantine itself cannot be written, the answer is 503 and the provider
 * redelivers).
 */
@Service
final class ReceptorDeEventos {

  private final VerificadorDeAssinatura verificador;
  private final LeitorDeEvento leitor;
  private final Gravador gravador;
  private final Quarentena quarentena;
  private final ObservadorDoReceptor observador;

  ReceptorDeEventos(
      VerificadorDeAssinatura verificador,
      LeitorDeEvento leitor,
      Gravador gravador,
      Quarentena quarentena,
      ObservadorDoReceptor observador) {
    this.verificador = verificador;
    this.leitor = leitor;
    this.gravador = gravador;
    this.quarentena = quarentena;
    this.observador = observador;
  }

  /**
   * The credential the headers carry in a scheme that is switched on, the store's own header first;
   * refused at once when there is none, or when its timestamp has expired.
   */
  Credencial credencial(
      String assinaturaDaLoja, String webhookId, String webhookInstante, String webhookAssinatura) {
    if (verificador.aceita(EsquemaDeAssinatura.LOJA) && presente(assinaturaDaLoja)) {
      return new Credencial.Loja(assinaturaDaLoja);
    }
    if (verificador.aceita(EsquemaDeAssinatura.STANDARD_WEBHOOKS)
        && presente(webhookId)
        && presente(webhookInstante)
        && presente(webhookAssinatura)) {
      Credencial.StandardWebhooks credencial =
          new Credencial.StandardWebhooks(webhookId, webhookInstante, webhookAssinatura);
      if (!verificador.instanteAceito(credencial)) {
        observador.assinaturaInvalida();
        throw new Recusa(
            TipoDeRecusa.ASSINATURA_EXPIRADA,
            "The "
                + AssinaturaDeWebhook.CABECALHO_INSTANTE
                + " is not within "
                + verificador.tolerancia().toSeconds()
                + " seconds of this server's clock.");
      }
      return credencial;
    }
    throw assinaturaInvalida();
  }

  Desfecho receber(byte[] corpo, Credencial credencial) {
    if (!verificador.valida(corpo, credencial)) {
      throw assinaturaInvalida();
    }
    EventoRecebido evento;
    Desfecho desfecho;
    try {
      evento = leitor.ler(corpo);
      desfecho = gravador.gravar(evento);
    } catch (Recusa recusa) {
      if (recusa.tipo() == TipoDeRecusa.CORPO_INVALIDO) {
        guardarEmQuarentena(corpo, recusa);
      }
      throw recusa;
    }
    observador.gravado(evento, desfecho);
    return desfecho;
  }

  private static boolean presente(String cabecalho) {
    return cabecalho != null && !cabecalho.isEmpty();
  }

  private Recusa assinaturaInvalida() {
    observador.assinaturaInvalida();
    return Recusa.assinaturaInvalida();
  }

  private void guardarEmQuarentena(byte[] corpo, Recusa recusa) {
    try {
      quarentena.guardar(corpo, recusa.motivo() + ": " + recusa.getMessage(), recusa.eventoId());
    } catch (RuntimeException e) {
      observador.falhaDoBanco(1, FalhaDoBanco.de(e), e);
      throw new Recusa(
          TipoDeRecusa.BANCO_INDISPONIVEL, "The body could not be kept in quarantine now.", e);
    }
    observador.emQuarentena(recusa, corpo.length);
  }
}
