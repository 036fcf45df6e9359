package pedidos.receptor.entrada;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.receptor.assinatura.Credencial;
import pedidos.receptor.desfecho.Desfecho;

/**
 * {@code POST /webhooks/loja}: the HTTP edge. Other methods get 405 and other content types 415
 * from Spring MVC itself, before this runs; every refusal is rendered by {@link TratadorDeErros}.
 */
@RestController
final class EndpointDaLoja {

  static final String CAMINHO = "/webhooks/loja";

  private static final Map<Desfecho, byte[]> RESPOSTAS = new EnumMap<>(Desfecho.class);

  static {
    for (Desfecho desfecho : Desfecho.values()) {
      RESPOSTAS.put(
          desfecho,
          ("{\"resultado\":\"" + desfecho.rotulo() + "\"}").getBytes(StandardCharsets.UTF_8));
    }
  }

  private final LeitorDeCorpo leitor;
  private final ReceptorDeEventos receptor;

  EndpointDaLoja(LeitorDeCorpo leitor, ReceptorDeEventos receptor) {
    this.leitor = leitor;
    this.receptor = receptor;
  }

  @PostMapping(
      path = CAMINHO,
      consumes = {MediaType.APPLICATION_JSON_VALUE, "application/*+json"})
  ResponseEntity<byte[]> receber(
      @RequestHeader(name = AssinaturaDeWebhook.CABECALHO_DA_LOJA, required = false)
          String assinatura,
      @RequestHeader(name = AssinaturaDeWebhook.CABECALHO_ID, required = false) String webhookId,
      @RequestHeader(name = AssinaturaDeWebhook.CABECALHO_INSTANTE, required = false)
          String webhookInstante,
      @RequestHeader(name = AssinaturaDeWebhook.CABECALHO_ASSINATURA, required = false)
          String webhookAssinatura,
      HttpServletRequest requisicao) {
    // Refused before reading the body when nothing could verify it.
    Credencial credencial =
        receptor.credencial(assinatura, webhookId, webhookInstante, webhookAssinatura);
    Desfecho desfecho;
    // The body's bytes count against receptor.corpos-em-memoria until it is answered.
    try (LeitorDeCorpo.Corpo corpo = leitor.ler(requisicao)) {
      desfecho = receptor.receber(corpo.bytes(), credencial);
    }
    FiltroDeMetricas.marcar(requisicao, desfecho.rotulo());
    // A fixed content type and ready-made bytes: whatever the Accept header says, a stored event is
    // never answered 406 (the provider would redeliver it forever).
    return ResponseEntity.ok()
        .contentType(MediaType.APPLICATION_JSON)
        .body(RESPOSTAS.get(desfecho));
  }
}
