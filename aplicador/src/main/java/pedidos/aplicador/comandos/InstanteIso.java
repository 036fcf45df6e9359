package pedidos.aplicador.comandos;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * An instant as ISO-8601 writes it in UTC, with a message that shows how: the one converter of
 * every command that takes instants ({@code replay}, {@code rederivar-em-massa}).
 */
final class InstanteIso implements ITypeConverter<Instant> {

  /** The line of their help that says how to write one. */
  static final String EM_UTC = "Instants are written in UTC, as 2026-11-30T10:00:00Z.";

  @Override
  public Instant convert(String valor) {
    try {
      return Instant.parse(valor);
    } catch (DateTimeParseException e) {
      throw new TypeConversionException(
          "'" + valor + "' is not an instant: write it in UTC, as 2026-11-30T10:00:00Z");
    }
  }
}
