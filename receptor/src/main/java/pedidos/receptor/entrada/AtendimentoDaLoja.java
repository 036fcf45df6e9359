package pedidos.receptor.entrada;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Enumeration;
import java.util.Map;
import org.springframework.stereotype.Component;
import pedidos.contrato.AssinaturaDeWebhook;
import pedidos.receptor.assinatura.Credencial;
import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;

/**
 * What {@code POST /webhooks/loja} does with a delivery, whichever way it came in ({@link
 * AtalhoDoWebhook}, or Spring MVC's {@link EndpointDaLoja}): the per-address limit, the credential
 * from the headers, the body within its limits, then verify and store. Returns what storing came
 * to, once committed; a refusal is thrown as a {@link Recusa}.
 */
@Component
final class AtendimentoDaLoja {

  private static final Map<Desfecho, byte[]> RESPOSTAS = new EnumMap<>(Desfecho.class);

  static {
    for (Desfecho desfecho : Desfecho.values()) {
      RESPOSTAS.put(
          desfecho,
          ("{\"resultado\":\"" + desfecho.rotulo() + "\"}").getBytes(StandardCharsets.UTF_8));
    }
  }

  private final LimiteDeTaxaPorOrigem limite;
  private final LeitorDeCorpo leitor;
  private final ReceptorDeEventos receptor;

  AtendimentoDaLoja(
      LimiteDeTaxaPorOrigem limite, LeitorDeCorpo leitor, ReceptorDeEventos receptor) {
    this.limite = limite;
    this.leitor = leitor;
    this.receptor = receptor;
  }

  /** The 200's body: ready-made bytes, one per outcome. */
  static byte[] resposta(Desfecho desfecho) {
    return RESPOSTAS.get(desfecho);
  }

  Desfecho atender(HttpServletRequest requisicao) {
    // Before the body is read or the signature computed: a flood costs a map lookup per request.
    limite.verificar(requisicao);
    // Refused before reading the body when nothing could verify it.
    Credencial credencial =
        receptor.credencial(
            cabecalho(requisicao, AssinaturaDeWebhook.CABECALHO_DA_LOJA),
            cabecalho(requisicao, AssinaturaDeWebhook.CABECALHO_ID),
            cabecalho(requisicao, AssinaturaDeWebhook.CABECALHO_INSTANTE),
            cabecalho(requisicao, AssinaturaDeWebhook.CABECALHO_ASSINATURA));
    // The body's bytes count against receptor.corpos-em-memoria until it is answered.
    try (LeitorDeCorpo.Corpo corpo = leitor.ler(requisicao)) {
      return receptor.receber(corpo.bytes(), credencial);
    }
  }

  /**
   * A header's value, or null. A header sent more than once is all its values joined by commas, as
   * Spring MVC's {@code @RequestHeader} gave it: a second signature header must not let the first
   * verify on its own.
   */
  private static String cabecalho(HttpServletRequest requisicao, String nome) {
    Enumeration<String> valores = requisicao.getHeaders(nome);
    if (valores == null || !valores.hasMoreElements()) {
      return null;
    }
    String primeiro = valores.nextElement();
    if (!valores.hasMoreElements()) {
      return primeiro;
    }
    StringBuilder todos = new StringBuilder(primeiro);
    while (valores.hasMoreElements()) {
      todos.append(',').append(valores.nextElement());
    }
    return todos.toString();
  }
}
