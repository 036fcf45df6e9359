package pedidos.aplicador.aplicacao;

import pedidos.contrato.EnvelopeDeEntrada;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON parsers of every stage that reads an event, sized from {@link EnvelopeDeEntrada} rather
 * than from Jackson's defaults: whatever the receptor accepted is read, and whatever is outside
 * fails with a {@link StreamConstraintsException} that the reader turns into a named outcome (a
 * dead-letter record, a {@code fato_invalido}), never into a retry.
 */
public final class LeitoresDoEnvelope {

  private LeitoresDoEnvelope() {}

  /**
   * Reads events as PostgreSQL's {@code jsonb} text writes them: numbers written out in full, a
   * document at most {@code documento} characters long.
   *
   * @param decimais whether floats are read as {@code BigDecimal} (a sequence of 7.0 is a safe
   *     integer, 7.000000000000001 is not)
   */
  public static JsonMapper leitor(long documento, boolean decimais) {
    var limites =
        StreamReadConstraints.builder()
            .maxNestingDepth(EnvelopeDeEntrada.PROFUNDIDADE_DOS_LEITORES)
            .maxNumberLength(EnvelopeDeEntrada.CARACTERES_DE_NUMERO_NO_JSONB)
            // A string is part of the jsonb text, which the envelope bounds.
            .maxStringLength(EnvelopeDeEntrada.BYTES_NO_JSONB)
            .maxNameLength(EnvelopeDeEntrada.CARACTERES_DE_NOME)
            .maxDocumentLength(documento)
            .build();
    var leitor = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(limites).build());
    if (decimais) {
      leitor.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }
    return leitor.build();
  }

  /**
   * @return the limit a document broke, or {@code null} when the failure is not a limit (the text
   *     is not JSON)
   */
  public static String limiteExcedido(JacksonException falha) {
    return falha instanceof StreamConstraintsException ? falha.getOriginalMessage() : null;
  }
}
