package pedidos.contrato;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamWriteConstraints;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one JSON codec of the Kafka records ({@link RegistroDeEvento}, {@link RegistroDeEfeito}): the
 * relay writes with it, the aplicador and the picking system read with it, so a field renamed on
 * one side is renamed on the other.
 *
 * <p>Sized from the input envelope rather than left at Jackson's defaults, which are smaller than
 * what the receptor accepts (numbers of 1,000 characters where PostgreSQL writes {@code 1e400} out
 * as 401 digits) or larger than anything legitimate. Whatever the receptor accepts is written and
 * read; a payload outside the envelope fails, deterministically, with the limit named ({@value
 * #FORA_DO_ENVELOPE}...), and is a dead letter wherever it is met.
 *
 * <p>Numbers in a payload are kept exactly as stored: no double rounding (7.000000000000001 stays
 * what it is), no trailing zeros stripped, written out plainly as PostgreSQL writes them ({@code
 * 1E-400} would be the same number in another text). So a payload read back from a record is the
 * text the relay put in it.
 *
 * <p>The reasons a record is refused are stable codes, not prose (they end in the dead-letter
 * topic's reason header, which operators search): {@code registro sem valor}, {@code registro nao e
 * JSON}, {@code registro fora do envelope: <limit>}, {@code registro nao e um objeto JSON}, {@code
 * payload ausente ou nao e um objeto}, {@code payload contem \u0000}, {@code <field> ausente ou nao
 * e texto}.
 */
public final class FormatoDosRegistros {

  /** The start of the reason of a record outside the input envelope. */
  public static final String FORA_DO_ENVELOPE = "registro fora do envelope: ";

  private static final JsonMapper JSON = mapeador(-1);

  /** Reads a whole record: at most the largest record of one event. */
  private static final JsonMapper LEITOR = mapeador(EnvelopeDeEntrada.BYTES_DA_MENSAGEM);

  private FormatoDosRegistros() {}

  /**
   * The mapper the records are written with, for what a writer reads on the way (the relay's
   * captured rows, which carry the payload as a string, and their keys): the envelope's limits, and
   * numbers kept exactly. Thread-safe and immutable.
   */
  public static JsonMapper json() {
    return JSON;
  }

  /**
   * @param payload PostgreSQL's text of the stored {@code jsonb}: a JSON object
   * @throws RegistroIlegivelException when a field is missing or the payload is not an object
   *     within the envelope; its cause names the limit
   */
  public static String escrever(RegistroDeEvento registro) {
    JsonNode payload;
    try {
      payload = JSON.readTree(exigir(registro.payload(), "payload"));
    } catch (JacksonException e) {
      throw new RegistroIlegivelException(ilegivel("payload", e), e);
    }
    if (!payload.isObject()) {
      throw new RegistroIlegivelException("payload ausente ou nao e um objeto");
    }
    ObjectNode valor = JSON.createObjectNode();
    valor.put("evento_id", exigir(registro.eventoId(), "evento_id"));
    valor.put("recurso_id", exigir(registro.recursoId(), "recurso_id"));
    valor.put("tipo", exigir(registro.tipo(), "tipo"));
    valor.set("payload", payload);
    valor.put("recebido_em", texto(registro.recebidoEm()));
    return escrever(valor);
  }

  /**
   * Absent status and total are written as {@code null}: the picking system sees every field.
   *
   * @throws RegistroIlegivelException without the order or the effect
   */
  public static String escrever(RegistroDeEfeito registro) {
    ObjectNode valor = JSON.createObjectNode();
    valor.put("pedido_id", exigir(registro.pedidoId(), "pedido_id"));
    valor.put("efeito", exigir(registro.efeito(), "efeito"));
    valor.put("status", registro.status());
    valor.put("total_centavos", registro.totalCentavos());
    valor.put("criado_em", texto(registro.criadoEm()));
    return escrever(valor);
  }

  /**
   * A record of {@value TopicosDoKafka#EVENTOS}, refusing for good what can never be applied.
   *
   * @throws RegistroIlegivelException with the reason (see the class)
   */
  public static RegistroDeEvento lerEvento(String valor) {
    JsonNode registro = ler(valor);
    JsonNode payload = registro.path("payload");
    if (!payload.isObject()) {
      throw new RegistroIlegivelException("payload ausente ou nao e um objeto");
    }
    String payloadTexto = LEITOR.writeValueAsString(payload);
    if (payloadTexto.contains("\\u0000")) {
      // PostgreSQL's jsonb cannot hold it: storing it would fail the same way forever.
      throw new RegistroIlegivelException("payload contem \\u0000");
    }
    return new RegistroDeEvento(
        texto(registro, "evento_id"),
        texto(registro, "recurso_id"),
        texto(registro, "tipo"),
        payloadTexto,
        instante(registro.path("recebido_em")));
  }

  /**
   * A record of {@value TopicosDoKafka#EFEITOS}. The order and the effect are required (they are
   * the idempotency key); the other fields are {@code null} when absent or of another type.
   *
   * @throws RegistroIlegivelException with the reason (see the class)
   */
  public static RegistroDeEfeito lerEfeito(String valor) {
    JsonNode registro = ler(valor);
    JsonNode status = registro.path("status");
    JsonNode total = registro.path("total_centavos");
    return new RegistroDeEfeito(
        texto(registro, "pedido_id"),
        texto(registro, "efeito"),
        status.isString() ? status.stringValue() : null,
        total.isIntegralNumber() && total.canConvertToLong() ? total.longValue() : null,
        instante(registro.path("criado_em")));
  }

  private static JsonNode ler(String valor) {
    if (valor == null) {
      throw new RegistroIlegivelException("registro sem valor");
    }
    JsonNode registro;
    try {
      registro = LEITOR.readTree(valor);
    } catch (JacksonException e) {
      throw new RegistroIlegivelException(ilegivel("registro", e), e);
    }
    if (!registro.isObject()) {
      throw new RegistroIlegivelException("registro nao e um objeto JSON");
    }
    return registro;
  }

  private static String ilegivel(String oQue, JacksonException falha) {
    return falha instanceof StreamConstraintsException
        ? (oQue.equals("registro") ? FORA_DO_ENVELOPE : oQue + " fora do envelope: ")
            + falha.getOriginalMessage()
        : oQue + " nao e JSON";
  }

  private static String escrever(JsonNode valor) {
    try {
      return JSON.writeValueAsString(valor);
    } catch (JacksonException e) {
      throw new RegistroIlegivelException("cannot write the record as JSON", e);
    }
  }

  private static String exigir(String valor, String campo) {
    if (valor == null || valor.isBlank()) {
      throw new RegistroIlegivelException(campo + " ausente ou nao e texto");
    }
    return valor;
  }

  private static String texto(JsonNode registro, String campo) {
    JsonNode valor = registro.path(campo);
    return exigir(valor.isString() ? valor.stringValue() : null, campo);
  }

  /** As {@link Instant#toString()} writes it: what both write paths of the relay always did. */
  private static String texto(Instant instante) {
    return instante == null ? null : instante.toString();
  }

  /** {@code null} when absent or unreadable: no reader needs it to act on a record. */
  private static Instant instante(JsonNode valor) {
    if (!valor.isString()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(valor.stringValue()).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * @param documento the longest text read, in characters; -1 for no bound
   */
  private static JsonMapper mapeador(long documento) {
    return JsonMapper.builder(
            JsonFactory.builder()
                .streamReadConstraints(
                    StreamReadConstraints.builder()
                        // The payload's levels, the record's own object around it, and a margin.
                        .maxNestingDepth(EnvelopeDeEntrada.PROFUNDIDADE_DOS_LEITORES)
                        .maxNumberLength(EnvelopeDeEntrada.CARACTERES_DE_NUMERO_NO_JSONB)
                        // A captured row carries the whole payload as one string.
                        .maxStringLength(EnvelopeDeEntrada.BYTES_NO_JSONB)
                        // Records travel as text: a key's length is counted in characters, as the
                        // receptor counts it.
                        .maxNameLength(EnvelopeDeEntrada.CARACTERES_DE_NOME)
                        .maxDocumentLength(documento)
                        .build())
                .streamWriteConstraints(
                    StreamWriteConstraints.builder()
                        .maxNestingDepth(EnvelopeDeEntrada.PROFUNDIDADE_DOS_LEITORES)
                        .build())
                .build())
        .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
        .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
        .build();
  }
}
