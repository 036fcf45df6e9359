package pedidos.simulador;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The store's wire formats: webhook bodies and orders API pages. The picking messages are the
 * contract's ({@link pedidos.contrato.FormatoDosRegistros}).
 */
final class FormatoDaLoja {

  // Always three fraction digits: the text is part of an API fact's event id, so one instant must
  // always be written the same way.
  private static final DateTimeFormatter INSTANTE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final JsonMapper json = JsonMapper.builder().build();

  static String instante(Instant instante) {
    return INSTANTE.format(instante);
  }

  /** The body the store signs and posts; the same bytes on every delivery of the event. */
  byte[] corpoDoWebhook(EventoDaLoja evento) {
    ObjectNode corpo = json.createObjectNode();
    corpo.put("id", evento.eventoId());
    corpo.put("type", evento.tipo());
    corpo.put("occurred_at", evento.ocorridoEmTexto());
    if (evento.sequence() != null) {
      corpo.put("sequence", evento.sequence());
    }
    ObjectNode dados = corpo.putObject("data");
    dados.put("id", evento.pedidoId());
    dados.put("status", evento.status().statusDaApi());
    if (evento.totalCentavos() != null) {
      dados.put("total_cents", evento.totalCentavos());
    }
    if (evento.clienteEmail() != null) {
      dados.put("customer_email", evento.clienteEmail());
    }
    return json.writeValueAsBytes(corpo);
  }

  /** A page of the orders API. */
  byte[] pagina(List<VistaDoPedido> vistas, String proxima) {
    ObjectNode corpo = json.createObjectNode();
    ArrayNode pedidos = corpo.putArray("orders");
    for (VistaDoPedido vista : vistas) {
      ObjectNode pedido = pedidos.addObject();
      pedido.put("id", vista.pedidoId());
      pedido.put("status", vista.statusDaApi());
      if (vista.sequence() != null) {
        pedido.put("sequence", vista.sequence());
      }
      pedido.put("updated_at", vista.atualizadoEm());
      if (vista.totalCentavos() != null) {
        pedido.put("total_cents", vista.totalCentavos());
      }
      if (vista.clienteEmail() != null) {
        pedido.put("customer_email", vista.clienteEmail());
      }
    }
    corpo.put("next", proxima);
    return json.writeValueAsBytes(corpo);
  }

  byte[] erro(String mensagem) {
    ObjectNode corpo = json.createObjectNode();
    corpo.put("error", mensagem);
    return json.writeValueAsBytes(corpo);
  }
}
