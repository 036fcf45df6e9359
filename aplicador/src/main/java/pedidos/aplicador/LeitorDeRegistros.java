package pedidos.aplicador;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import pedidos.dominio.EnvelopeDeEntrada;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a {@code loja.eventos} record, refusing for good what can never be applied: a record
 * outside the input envelope as well, whose limits the parser holds.
 */
final class LeitorDeRegistros {

  private final JsonMapper json =
      LeitoresDoEnvelope.leitor(EnvelopeDeEntrada.BYTES_DA_MENSAGEM, false);

  RegistroDeEvento ler(String valor) {
    if (valor == null) {
      throw new RegistroInaplicavelException("registro sem valor");
    }
    JsonNode registro;
    try {
      registro = json.readTree(valor);
    } catch (JacksonException e) {
      String limite = LeitoresDoEnvelope.limiteExcedido(e);
      throw new RegistroInaplicavelException(
          limite == null ? "registro nao e JSON" : "registro fora do envelope: " + limite);
    }
    if (!registro.isObject()) {
      throw new RegistroInaplicavelException("registro nao e um objeto JSON");
    }
    JsonNode payload = registro.path("payload");
    if (!payload.isObject()) {
      throw new RegistroInaplicavelException("payload ausente ou nao e um objeto");
    }
    String payloadTexto = json.writeValueAsString(payload);
    if (payloadTexto.contains("\\u0000")) {
      // PostgreSQL's jsonb cannot hold it: the insert would fail the same way forever.
      throw new RegistroInaplicavelException("payload contem \\u0000");
    }
    return new RegistroDeEvento(
        texto(registro, "evento_id"),
        texto(registro, "recurso_id"),
        texto(registro, "tipo"),
        payloadTexto,
        instante(registro.path("recebido_em")));
  }

  private static String texto(JsonNode registro, String campo) {
    JsonNode valor = registro.path(campo);
    if (!valor.isString() || valor.stringValue().isBlank()) {
      throw new RegistroInaplicavelException(campo + " ausente ou nao e texto");
    }
    return valor.stringValue();
  }

  private static OffsetDateTime instante(JsonNode valor) {
    if (!valor.isString()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(valor.stringValue());
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
