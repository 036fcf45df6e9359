package pedidos.receptor.evento;

import static pedidos.contrato.EnvelopeDeEntrada.BYTES_DA_MENSAGEM;
import static pedidos.contrato.EnvelopeDeEntrada.BYTES_DE_NOME_DOS_LEITORES;
import static pedidos.contrato.EnvelopeDeEntrada.BYTES_NO_JSONB;
import static pedidos.contrato.EnvelopeDeEntrada.CARACTERES_DE_NUMERO_NO_JSONB;
import static pedidos.contrato.EnvelopeDeEntrada.CARACTERES_DE_TEXTO;
import static pedidos.contrato.EnvelopeDeEntrada.PROFUNDIDADE_DOS_LEITORES;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A later stage's reader, as the relay (Debezium, Jackson 2) and the applier read a stored event:
 * Jackson 2 over the bytes of PostgreSQL's jsonb text, every limit set from the input envelope and
 * none left at Jackson's defaults. What the receptor stores must pass it.
 */
final class LeitorPosterior {

  static final JsonFactory JACKSON_2 =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(PROFUNDIDADE_DOS_LEITORES)
                  .maxNumberLength(CARACTERES_DE_NUMERO_NO_JSONB)
                  .maxNameLength(BYTES_DE_NOME_DOS_LEITORES)
                  .maxStringLength(CARACTERES_DE_TEXTO)
                  .maxDocumentLength(BYTES_DA_MENSAGEM)
                  .build())
          .streamWriteConstraints(
              StreamWriteConstraints.builder().maxNestingDepth(PROFUNDIDADE_DOS_LEITORES).build())
          .build();

  private LeitorPosterior() {}

  /**
   * Reads the stored text, writes it into a relay-like record ({@code {"payload": ..., "op": "c"}},
   * a level more), and reads that record back, every number as a {@code BigDecimal}.
   */
  static void lerComoORelay(byte[] textoDoJsonb) {
    if (textoDoJsonb.length > BYTES_NO_JSONB) {
      throw new IllegalStateException(
          "stored jsonb text of " + textoDoJsonb.length + " bytes, over BYTES_NO_JSONB");
    }
    ByteArrayOutputStream registro = new ByteArrayOutputStream(textoDoJsonb.length + 64);
    try (JsonParser parser = JACKSON_2.createParser(textoDoJsonb);
        JsonGenerator gerador = JACKSON_2.createGenerator(registro)) {
      parser.nextToken();
      gerador.writeStartObject();
      gerador.writeFieldName("payload");
      gerador.copyCurrentStructure(parser);
      gerador.writeStringField("op", "c");
      gerador.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (JsonParser parser = JACKSON_2.createParser(registro.toByteArray())) {
      JsonToken token;
      while ((token = parser.nextToken()) != null) {
        if (token.isNumeric()) {
          parser.getDecimalValue();
        } else if (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME) {
          parser.getText();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
