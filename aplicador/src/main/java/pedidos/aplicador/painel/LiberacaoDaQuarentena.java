package pedidos.aplicador.painel;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.contrato.EnvelopeDeEntrada;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Releases a quarantined body for storage once the cause that kept it out is fixed: the body, as
 * the provider signed it, is stored in the inbox as the receptor stores an event ({@code INSERT ...
 * ON CONFLICT (evento_id) DO NOTHING}, a pending row), and the quarantine row is marked released
 * with the event it became. From there it goes the way of every event: the relay publishes the new
 * inbox row, the listener or the sweep applies it.
 *
 * <p>The body must pass what the receptor requires of an event: strict UTF-8, one JSON object
 * without duplicate keys inside the input envelope ({@link EnvelopeDeEntrada}), string {@code id}
 * and {@code type}, an object {@code data} with a string {@code id}; and PostgreSQL's jsonb must
 * take it. A body that still fails stays quarantined, with the reason in the audit. Releasing twice
 * stores once: the second finds the row released.
 */
@Component
class LiberacaoDaQuarentena {

  static final String LER =
      """
      SELECT corpo, liberado_em, liberado_como FROM webhook_quarentena WHERE id = :id FOR UPDATE
      """;

  // The receptor's insert; a redelivery of the same body is compared as the receptor compares it
  // (mesmo_corpo, V12), so a body already stored by a later delivery is not a conflict.
  static final String GUARDAR =
      """
      WITH novo AS (
        INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
        VALUES (:eventoId, :recursoId, :tipo, CAST(:payload AS jsonb))
        ON CONFLICT (evento_id) DO NOTHING
        RETURNING 'guardado' AS desfecho
      )
      SELECT desfecho FROM novo
      UNION ALL
      SELECT CASE WHEN mesmo_corpo(e.payload, e.payload_sha256, CAST(:payload AS jsonb))
                  THEN 'ja_guardado' ELSE 'conflito' END
        FROM webhook_eventos e
       WHERE e.evento_id = :eventoId AND NOT EXISTS (SELECT 1 FROM novo)
      """;

  static final String MARCAR =
      """
      UPDATE webhook_quarentena SET liberado_em = now(), liberado_como = :eventoId
       WHERE id = :id AND liberado_em IS NULL
      """;

  private static final JsonMapper JSON =
      JsonMapper.builder(
              JsonFactory.builder()
                  .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(EnvelopeDeEntrada.PROFUNDIDADE)
                          .maxNumberLength(EnvelopeDeEntrada.CARACTERES_DE_NUMERO)
                          .maxNameLength(EnvelopeDeEntrada.CARACTERES_DE_NOME)
                          .maxStringLength(EnvelopeDeEntrada.CARACTERES_DE_TEXTO)
                          .maxDocumentLength(EnvelopeDeEntrada.BYTES_DO_CORPO)
                          .build())
                  .build())
          .build();

  private final JdbcClient jdbc;
  private final TransactionTemplate transacao;

  LiberacaoDaQuarentena(JdbcClient jdbc, TransactionTemplate transacao) {
    this.jdbc = jdbc;
    this.transacao = transacao;
  }

  record EventoDoCorpo(String eventoId, String recursoId, String tipo, String texto) {}

  /** Thrown when the body still cannot be stored as an event. */
  static final class CorpoAindaInvalido extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CorpoAindaInvalido(String motivo) {
      super(motivo);
    }
  }

  Desfecho liberar(long id) {
    try {
      return transacao.execute(status -> liberarNaTransacao(id, status));
    } catch (CorpoAindaInvalido e) {
      return Desfecho.recusado(
          "quarantined body " + id + " still cannot be stored: " + e.getMessage(), null);
    }
  }

  private Desfecho liberarNaTransacao(long id, TransactionStatus status) {
    record Linha(byte[] corpo, OffsetDateTime liberadoEm, String liberadoComo) {}
    var linha =
        jdbc.sql(LER)
            .param("id", id)
            .query(
                (rs, n) ->
                    new Linha(
                        rs.getBytes(1), rs.getObject(2, OffsetDateTime.class), rs.getString(3)))
            .optional();
    if (linha.isEmpty()) {
      return Desfecho.recusado("no quarantined body " + id, null);
    }
    if (linha.get().liberadoEm() != null) {
      return Desfecho.nadaAFazer(
          "quarantined body "
              + id
              + " was released at "
              + linha.get().liberadoEm()
              + " as event "
              + linha.get().liberadoComo(),
          recursoDe(linha.get().liberadoComo()));
    }
    EventoDoCorpo evento = ler(linha.get().corpo());
    String desfecho;
    try {
      desfecho =
          jdbc.sql(GUARDAR)
              .param("eventoId", evento.eventoId())
              .param("recursoId", evento.recursoId())
              .param("tipo", evento.tipo())
              .param("payload", evento.texto())
              .query(String.class)
              .single();
    } catch (DataAccessException e) {
      // jsonb refused it (a \u0000, a lone surrogate, a number it cannot hold): nothing stored.
      status.setRollbackOnly();
      throw new CorpoAindaInvalido(
          "PostgreSQL refused it: " + e.getMostSpecificCause().getMessage());
    }
    if ("conflito".equals(desfecho)) {
      status.setRollbackOnly();
      return Desfecho.recusado(
          "event "
              + evento.eventoId()
              + " is already stored with another body; the inbox keeps the first (the body stays"
              + " quarantined)",
          evento.recursoId());
    }
    jdbc.sql(MARCAR).param("id", id).param("eventoId", evento.eventoId()).update();
    return Desfecho.feito(
        "ja_guardado".equals(desfecho)
            ? "quarantined body "
                + id
                + " is event "
                + evento.eventoId()
                + ", already stored by a"
                + " later delivery: marked released"
            : "quarantined body "
                + id
                + " stored as event "
                + evento.eventoId()
                + " (pending: the relay publishes it, the applier applies it)",
        evento.recursoId());
  }

  private String recursoDe(String eventoId) {
    return jdbc.sql("SELECT recurso_id FROM webhook_eventos WHERE evento_id = :id")
        .param("id", eventoId)
        .query(String.class)
        .optional()
        .orElse(null);
  }

  /** What the receptor requires of a body before it stores it, or why not. */
  static EventoDoCorpo ler(byte[] corpo) {
    String texto;
    try {
      texto =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(corpo))
              .toString();
    } catch (CharacterCodingException e) {
      throw new CorpoAindaInvalido("the body is not valid UTF-8");
    }
    JsonNode raiz;
    try {
      raiz = JSON.readTree(texto);
    } catch (JacksonException e) {
      throw new CorpoAindaInvalido("the body is not valid JSON: " + e.getOriginalMessage());
    }
    if (raiz == null || !raiz.isObject()) {
      throw new CorpoAindaInvalido("the body is not a JSON object");
    }
    String eventoId = texto(raiz, "id");
    String tipo = texto(raiz, "type");
    JsonNode dados = raiz.path("data");
    if (!dados.isObject()) {
      throw new CorpoAindaInvalido("field 'data' is missing or not an object");
    }
    String recursoId = texto(dados, "id");
    return new EventoDoCorpo(eventoId, recursoId, tipo, texto);
  }

  private static String texto(JsonNode objeto, String campo) {
    JsonNode valor = objeto.path(campo);
    if (!valor.isString() || valor.stringValue().isEmpty()) {
      throw new CorpoAindaInvalido("field '" + campo + "' is missing or not a non-empty string");
    }
    return valor.stringValue();
  }
}
