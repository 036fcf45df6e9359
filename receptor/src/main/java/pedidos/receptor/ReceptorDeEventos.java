package pedidos.receptor;

import org.springframework.stereotype.Service;
import pedidos.receptor.Recusa.AssinaturaExpirada;
import pedidos.receptor.Recusa.AssinaturaInvalida;
import pedidos.receptor.Recusa.CorpoInvalido;

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
  private final EnsaioDaGravacao ensaio;

  ReceptorDeEventos(
      VerificadorDeAssinatura verificador,
      LeitorDeEvento leitor,
      Gravador gravador,
      Quarentena quarentena,
      ObservadorDoReceptor observador,
      EnsaioDaGravacao ensaio) {
    this.verificador = verificador;
    this.leitor = leitor;
    this.gravador = gravador;
    this.quarentena = quarentena;
    this.observador = observador;
    this.ensaio = ensaio;
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
        throw new AssinaturaExpirada(verificador.tolerancia());
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
    } catch (CorpoInvalido recusa) {
      guardarEmQuarentena(corpo, recusa);
      throw recusa;
    }
    observador.gravado(evento, desfecho);
    return desfecho;
  }

  /**
   * A warm-up request ({@link AquecimentoDoReceptor}): the same check, reading and way to the
   * database as {@link #receber}, its writes rolled back and observed by the warm-up's own
   * observer.
   */
  Desfecho ensaiar(byte[] corpo, Credencial credencial) {
    if (!verificador.valida(corpo, credencial)) {
      throw assinaturaInvalida();
    }
    EventoRecebido evento = leitor.ler(corpo);
    Desfecho desfecho = gravador.ensaiar(evento);
    ensaio.observador().gravado(evento, desfecho);
    return desfecho;
  }

  private static boolean presente(String cabecalho) {
    return cabecalho != null && !cabecalho.isEmpty();
  }

  AssinaturaInvalida assinaturaInvalida() {
    observador.assinaturaInvalida();
    return new AssinaturaInvalida();
  }

  private void guardarEmQuarentena(byte[] corpo, CorpoInvalido recusa) {
    try {
      quarentena.guardar(corpo, recusa.motivo() + ": " + recusa.getMessage(), recusa.eventoId());
    } catch (RuntimeException e) {
      observador.falhaDoBanco(1, FalhaDoBanco.de(e), e);
      throw new Recusa.BancoIndisponivel("The body could not be kept in quarantine now.", e);
    }
    observador.emQuarentena(recusa, corpo.length);
  }
}
