package pedidos.contrato;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The input envelope: the one definition of how large and how deep an event body may be. The
 * receptor refuses whatever is outside it, and every later stage (the relay, the applier, replay)
 * sizes its parsers, its Kafka records and its topics from the same numbers, so that whatever the
 * receptor answers {@code 200} for passes every later stage.
 *
 * <p>The body is stored as {@code jsonb}, and what later stages read is PostgreSQL's text of that
 * {@code jsonb}, not the bytes received: numbers are written out in full ({@code 1e400} becomes 401
 * digits), a space follows every {@code :} and {@code ,}, and {@code \}{@code u} escapes of
 * printable characters become the characters. {@link Medidor} computes that text's size exactly
 * while the receptor reads the body, and the envelope bounds it.
 */
public final class EnvelopeDeEntrada {

  /** The body as received, in bytes. */
  public static final int BYTES_DO_CORPO = 1 << 20;

  /** PostgreSQL's text of the stored {@code jsonb}, in UTF-8 bytes. */
  public static final int BYTES_NO_JSONB = 2 << 20;

  /** Nesting of objects and arrays; the body's own object is level 1. */
  public static final int PROFUNDIDADE = 64;

  /** A number's text as sent. */
  public static final int CARACTERES_DE_NUMERO = 100;

  /** The absolute value of a number's exponent, as PostgreSQL's {@code numeric} stores it. */
  public static final int EXPOENTE = 400;

  /** A key of an object. */
  public static final int CARACTERES_DE_NOME = 1_000;

  /** A string value, in characters; the body's size bounds it first. */
  public static final int CARACTERES_DE_TEXTO = BYTES_DO_CORPO;

  /**
   * A number as PostgreSQL writes it back: {@link #CARACTERES_DE_NUMERO} digits shifted by at most
   * {@link #EXPOENTE} places, a sign, a point and a leading zero.
   */
  public static final int CARACTERES_DE_NUMERO_NO_JSONB = CARACTERES_DE_NUMERO + EXPOENTE + 3;

  /**
   * Levels that later stages add around the body: the relay's record holds the payload in an object
   * of its own, and a reader may wrap it once more. Readers allow {@link #PROFUNDIDADE} plus this.
   */
  public static final int MARGEM_DE_PROFUNDIDADE = 8;

  /**
   * What a Kafka record carrying one event may take beyond {@link #BYTES_NO_JSONB}: the record's
   * own fields (ids, type, instants), its key and headers, and the batch's framing.
   */
  public static final int MARGEM_DA_MENSAGEM = 64 << 10;

  /** The largest Kafka record value, key and headers of one event: topics and producers. */
  public static final int BYTES_DA_MENSAGEM = BYTES_NO_JSONB + MARGEM_DA_MENSAGEM;

  /**
   * What a dead-letter record of {@code loja.eventos.DLT} adds to the record it carries: the
   * applier's exception headers (message and stack trace, each capped there, at most 3 bytes a
   * character in UTF-8, plus class names) and the original topic, partition, offset, timestamp and
   * group. The relay sizes the topic with it, the applier its producer and its headers.
   */
  public static final int MARGEM_DO_DESCARTE = 128 << 10;

  /** The largest dead-letter record: the largest event's record and what the DLT adds to it. */
  public static final int BYTES_DA_MENSAGEM_DE_DESCARTE = BYTES_DA_MENSAGEM + MARGEM_DO_DESCARTE;

  /** The deepest nesting a reader of a stored or relayed event must accept. */
  public static final int PROFUNDIDADE_DOS_LEITORES = PROFUNDIDADE + MARGEM_DE_PROFUNDIDADE;

  /**
   * The longest key a reader must accept, in UTF-8 bytes: Jackson's parsers of bytes (the relay's,
   * Kafka's deserializers) measure a key in bytes, not in characters, and a character of a key
   * takes up to 3 of them (a surrogate pair, two characters, takes 4). A reader that set its limit
   * to {@link #CARACTERES_DE_NOME} would refuse a key of 400 CJK characters the receptor stored.
   */
  public static final int BYTES_DE_NOME_DOS_LEITORES = 3 * CARACTERES_DE_NOME;

  private EnvelopeDeEntrada() {}

  /**
   * Why a body is outside the envelope.
   *
   * @param motivo a stable code (the receptor's {@code motivo})
   * @param mensagem what the caller needs to fix it
   */
  public record Violacao(String motivo, String mensagem) {

    /** Objects and arrays nest deeper than {@link #PROFUNDIDADE}. */
    public static final Violacao PROFUNDIDADE_EXCESSIVA =
        new Violacao(
            "profundidade_excessiva", "Objects and arrays nest deeper than " + PROFUNDIDADE + ".");

    /** A key longer than {@link #CARACTERES_DE_NOME}. */
    public static final Violacao NOME_LONGO_DEMAIS =
        new Violacao(
            "nome_longo_demais", "A key is longer than " + CARACTERES_DE_NOME + " characters.");

    /** A string value longer than {@link #CARACTERES_DE_TEXTO}. */
    public static final Violacao TEXTO_LONGO_DEMAIS =
        new Violacao(
            "texto_longo_demais",
            "A string is longer than " + CARACTERES_DE_TEXTO + " characters.");

    /** A number written with more than {@link #CARACTERES_DE_NUMERO} characters. */
    public static final Violacao NUMERO_LONGO_DEMAIS =
        new Violacao(
            "numero_longo_demais",
            "A number is written with more than " + CARACTERES_DE_NUMERO + " characters.");

    /** A number whose magnitude or decimal places exceed {@link #EXPOENTE} digits. */
    public static final Violacao NUMERO_FORA_DA_ESCALA =
        new Violacao(
            "numero_fora_da_escala",
            "A number's magnitude or decimal places exceed " + EXPOENTE + " digits.");

    /** PostgreSQL's text of the body would exceed {@link #BYTES_NO_JSONB}. */
    public static final Violacao GRANDE_DEMAIS_NO_BANCO =
        new Violacao(
            "grande_demais_no_banco",
            "Stored as jsonb, the body would exceed "
                + BYTES_NO_JSONB
                + " bytes (PostgreSQL writes numbers out in full).");

    public Violacao {
      Objects.requireNonNull(motivo, "motivo");
      Objects.requireNonNull(mensagem, "mensagem");
    }
  }

  /**
   * Follows the tokens of one JSON body, as a streaming parser reads them, checks each against the
   * envelope and adds up the size of PostgreSQL's {@code jsonb} text of the whole body. Each method
   * returns the violation it found, or {@code null}; after a violation the body is refused and the
   * measurer is not used again.
   */
  public static final class Medidor {
    private int profundidade;
    private long bytesNoJsonb;
    // Per open level: is it an object, and has it a member or element already (", " before the
    // next)?
    private final boolean[] ehObjeto = new boolean[PROFUNDIDADE + 1];
    private final boolean[] temIrmao = new boolean[PROFUNDIDADE + 1];

    /** PostgreSQL's text of the body so far, in bytes. */
    public long bytesNoJsonb() {
      return bytesNoJsonb;
    }

    /** An object ({@code true}) or an array opens. */
    public Violacao abrir(boolean objeto) {
      if (profundidade == PROFUNDIDADE) {
        return Violacao.PROFUNDIDADE_EXCESSIVA;
      }
      valor();
      profundidade++;
      ehObjeto[profundidade] = objeto;
      temIrmao[profundidade] = false;
      bytesNoJsonb += 1;
      return tamanho();
    }

    /** The innermost object or array closes. */
    public Violacao fechar() {
      profundidade--;
      bytesNoJsonb += 1;
      return tamanho();
    }

    /** A key, written {@code "name": }; its value follows. */
    public Violacao nome(String nome) {
      if (nome.length() > CARACTERES_DE_NOME) {
        return Violacao.NOME_LONGO_DEMAIS;
      }
      separar();
      bytesNoJsonb += bytesDeTexto(nome) + 2;
      return tamanho();
    }

    /** A string value. */
    public Violacao texto(String texto) {
      if (texto.length() > CARACTERES_DE_TEXTO) {
        return Violacao.TEXTO_LONGO_DEMAIS;
      }
      valor();
      bytesNoJsonb += bytesDeTexto(texto);
      return tamanho();
    }

    /** A number, as its text was sent. */
    public Violacao numero(String numero) {
      if (numero.length() > CARACTERES_DE_NUMERO) {
        return Violacao.NUMERO_LONGO_DEMAIS;
      }
      BigDecimal valor;
      try {
        valor = new BigDecimal(numero);
      } catch (NumberFormatException e) {
        return new Violacao("numero_invalido", "A number cannot be read: " + numero);
      }
      // The decimal exponent of the leading digit, and the digits kept after the point.
      long expoente = (long) valor.precision() - valor.scale() - 1;
      if (Math.abs(expoente) > EXPOENTE || Math.abs((long) valor.scale()) > EXPOENTE) {
        return Violacao.NUMERO_FORA_DA_ESCALA;
      }
      valor();
      bytesNoJsonb += caracteresNoJsonb(valor);
      return tamanho();
    }

    /** {@code true}, {@code false} or {@code null}. */
    public Violacao literal(String literal) {
      valor();
      bytesNoJsonb += literal.length();
      return tamanho();
    }

    /** An element of an array is preceded by ", " unless it is the first; a member's value not. */
    private void valor() {
      if (profundidade > 0 && !ehObjeto[profundidade]) {
        separar();
      }
    }

    private void separar() {
      if (temIrmao[profundidade]) {
        bytesNoJsonb += 2;
      }
      temIrmao[profundidade] = true;
    }

    private Violacao tamanho() {
      if (bytesNoJsonb > BYTES_NO_JSONB) {
        return Violacao.GRANDE_DEMAIS_NO_BANCO;
      }
      return null;
    }
  }

  /** Characters of PostgreSQL's {@code numeric} text of a number: no exponent, sign if negative. */
  static int caracteresNoJsonb(BigDecimal valor) {
    BigDecimal semExpoente = valor.scale() < 0 ? valor.setScale(0) : valor;
    return semExpoente.toPlainString().length();
  }

  /**
   * UTF-8 bytes of a string as {@code jsonb} writes it: quoted, {@code "} and {@code \} escaped,
   * the short escapes of {@code \b \f \n \r \t}, {@code \}{@code u00XX} for the other control
   * characters, every other character as itself.
   */
  static long bytesDeTexto(String texto) {
    long bytes = 2;
    for (int i = 0; i < texto.length(); i++) {
      char c = texto.charAt(i);
      if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
        bytes += 2;
      } else if (c < 0x20) {
        bytes += 6;
      } else if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < texto.length()
          && Character.isLowSurrogate(texto.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
