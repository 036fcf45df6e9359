package pedidos.dominio;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The ordering key of a fact, the seed's {@code versaoDoFato}: one provider, one criterion. The
 * per-order {@code sequence} when it is a safe integer; else the fact's instant in milliseconds
 * times ten plus the status rank, so that two facts of the same millisecond order by how advanced
 * their status is.
 */
public sealed interface VersaoDoFato {

  /** {@code Number.MAX_SAFE_INTEGER}: the provider's numbers are JavaScript numbers. */
  BigDecimal MAIOR_INTEIRO_SEGURO = BigDecimal.valueOf((1L << 53) - 1);

  /** The range of a JavaScript {@code Date}; outside it {@code Date.parse} gives NaN. */
  long MAIOR_INSTANTE_EM_MS = 8_640_000_000_000_000L;

  record Valida(long valor) implements VersaoDoFato {}

  /** A permanent error: the same fact will never have a version, however often it is retried. */
  record InstanteInvalido(String instante) implements VersaoDoFato {
    public String motivo() {
      return "instante invalido: " + instante;
    }
  }

  /**
   * @param sequence the fact's {@code sequence} as a JSON number, or {@code null} when absent or
   *     not a number
   * @param instante the fact's {@code occurred_at} (or the API's {@code updated_at}), ISO-8601 with
   *     an offset; a local time without a zone is ambiguous and so invalid
   */
  static VersaoDoFato de(BigDecimal sequence, String instante, Status status) {
    if (inteiroSeguro(sequence)) {
      return new Valida(sequence.longValueExact());
    }
    Long ms = emMilissegundos(instante);
    if (ms == null) {
      return new InstanteInvalido(instante);
    }
    return new Valida(ms * 10 + status.rank());
  }

  /** JavaScript's {@code Number.isSafeInteger}: {@code 7.0} is an integer, {@code 7.5} is not. */
  static boolean inteiroSeguro(BigDecimal numero) {
    if (numero == null) {
      return false;
    }
    BigDecimal normalizado = numero.stripTrailingZeros();
    return normalizado.scale() <= 0 && normalizado.abs().compareTo(MAIOR_INTEIRO_SEGURO) <= 0;
  }

  /**
   * An instant as the provider writes it: ISO-8601 with an offset ({@code Z} or {@code +01:00});
   * empty when it is missing or cannot be read.
   */
  static Optional<Instant> lerInstante(String texto) {
    if (texto == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(texto).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Long emMilissegundos(String instante) {
    Instant lido = lerInstante(instante).orElse(null);
    if (lido == null) {
      return null;
    }
    if (lido.isBefore(Instant.ofEpochMilli(-MAIOR_INSTANTE_EM_MS))
        || lido.isAfter(Instant.ofEpochMilli(MAIOR_INSTANTE_EM_MS))) {
      return null;
    }
    return lido.toEpochMilli();
  }
}
