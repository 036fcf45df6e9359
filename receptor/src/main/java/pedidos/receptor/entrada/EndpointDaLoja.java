package pedidos.receptor.entrada;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import pedidos.receptor.desfecho.Desfecho;

/**
 * {@code POST /webhooks/loja} as Spring MVC knows it. A POST with a JSON content type is served by
 * {@link AtalhoDoWebhook} before it reaches MVC; every other request to the path does reach it, and
 * this mapping is what MVC answers them from: 405 with {@code Allow} for another method, 415 for
 * another or an unparseable content type, as problem+json through {@link TratadorDeErros}. Should a
 * delivery reach this method anyway, it is served the same way as on the hot path.
 */
@RestController
final class EndpointDaLoja {

  static final String CAMINHO = "/webhooks/loja";

  /** Beside {@code application/json}, what the mapping consumes and the hot path serves. */
  static final String JSON_COM_SUFIXO = "application/*+json";

  private final AtendimentoDaLoja atendimento;

  EndpointDaLoja(AtendimentoDaLoja atendimento) {
    this.atendimento = atendimento;
  }

  @PostMapping(
      path = CAMINHO,
      consumes = {MediaType.APPLICATION_JSON_VALUE, JSON_COM_SUFIXO})
  ResponseEntity<byte[]> receber(HttpServletRequest requisicao) {
    Desfecho desfecho = atendimento.atender(requisicao);
    AtalhoDoWebhook.marcar(requisicao, desfecho.rotulo());
    // A fixed content type and ready-made bytes: whatever the Accept header says, a stored event is
    // never answered 406 (the provider would redeliver it forever).
    return ResponseEntity.ok()
        .contentType(MediaType.APPLICATION_JSON)
        .body(AtendimentoDaLoja.resposta(desfecho));
  }
}
