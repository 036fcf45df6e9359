package pedidos.aplicador.aplicacao;

import java.math.BigDecimal;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.dominio.Interpretacao;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a stored event's payload into what it means for the order. The edge between JSON and the
 * domain: every shape the payload may have ends in a fact or a named reason, never an exception.
 */
public final class LeitorDeEventos {

  /**
   * The type under which reconciliation stores an order read from the provider's API: its payload
   * is the API's order object, read with the seed's {@code fatoDaApi}.
   */
  public static final String TIPO_DA_API = "api.order";

  // Floats read as BigDecimal: a sequence of 7.0 is a safe integer, 7.000000000000001 is not.
  // The payload is PostgreSQL's text of the stored jsonb, which the input envelope bounds.
  private final JsonMapper json = LeitoresDoEnvelope.leitor(EnvelopeDeEntrada.BYTES_NO_JSONB, true);

  public Interpretacao interpretar(String eventoId, String tipo, String payload) {
    JsonNode evento;
    try {
      evento = json.readTree(payload);
    } catch (JacksonException e) {
      String limite = LeitoresDoEnvelope.limiteExcedido(e);
      return Interpretacao.SemFato.invalido(
          limite == null ? "payload nao e JSON" : "payload fora do envelope: " + limite);
    }
    boolean daApi = TIPO_DA_API.equals(tipo);
    JsonNode dados = daApi ? evento : evento.path("data");
    JsonNode total = dados.path("total_cents");
    JsonNode email = dados.path("customer_email");
    if (!ausente(total) && inteiro(total) == null) {
      return Interpretacao.SemFato.invalido("total_cents invalido: " + total);
    }
    if (!ausente(email) && !email.isString()) {
      return Interpretacao.SemFato.invalido("customer_email invalido: " + email);
    }
    if (daApi) {
      return Interpretacao.daApi(
          eventoId,
          texto(evento.path("status")),
          numero(evento.path("sequence")),
          texto(evento.path("updated_at")),
          inteiro(total),
          texto(email));
    }
    return Interpretacao.doEvento(
        eventoId,
        tipo,
        numero(evento.path("sequence")),
        texto(evento.path("occurred_at")),
        inteiro(total),
        texto(email));
  }

  private static boolean ausente(JsonNode node) {
    return node.isMissingNode() || node.isNull();
  }

  private static BigDecimal numero(JsonNode node) {
    return node.isNumber() ? node.decimalValue() : null;
  }

  private static String texto(JsonNode node) {
    return node.isString() ? node.stringValue() : null;
  }

  /** An integral number that fits a bigint, written {@code 1990} or {@code 1990.0}. */
  private static Long inteiro(JsonNode node) {
    BigDecimal numero = numero(node);
    if (numero == null) {
      return null;
    }
    try {
      return numero.longValueExact();
    } catch (ArithmeticException e) {
      return null;
    }
  }
}
