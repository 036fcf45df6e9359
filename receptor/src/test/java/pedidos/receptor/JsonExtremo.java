package pedidos.receptor;

import static pedidos.contrato.EnvelopeDeEntrada.BYTES_DO_CORPO;
import static pedidos.contrato.EnvelopeDeEntrada.BYTES_NO_JSONB;
import static pedidos.contrato.EnvelopeDeEntrada.CARACTERES_DE_NOME;
import static pedidos.contrato.EnvelopeDeEntrada.CARACTERES_DE_NUMERO;
import static pedidos.contrato.EnvelopeDeEntrada.EXPOENTE;
import static pedidos.contrato.EnvelopeDeEntrada.PROFUNDIDADE;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Valid JSON events at and around every edge of the input envelope ({@code EnvelopeDeEntrada}):
 * huge and tiny exponents, numbers of 100 and 1,000 digits, nesting at {@code PROFUNDIDADE - 1},
 * {@code PROFUNDIDADE}, {@code PROFUNDIDADE + 1}, 500 and 1,000 levels, {@code \}{@code u} escapes
 * and astral characters, bodies around the body limit and jsonb texts around {@code
 * BYTES_NO_JSONB}, many keys, keys around {@code CARACTERES_DE_NOME}. Every body is a complete,
 * well-formed event ({@code id}, {@code type}, {@code data.id}); whether it is inside the envelope
 * is for the receptor to say. For the receptor's property tests and for end-to-end tests.
 *
 * <p>Also, for the measurer's property, ordinary but varied JSON ({@link #valores}): every escape,
 * control characters, non-ASCII, numbers with exponents, decimals, trailing zeros, negative zero.
 */
public final class JsonExtremo {

  private static final List<String> TIPOS =
      List.of("order.created", "order.paid", "order.shipped", "order.canceled", "order.refunded");

  private JsonExtremo() {}

  /**
   * Complete event bodies for one event id and order id, each carrying one to three extreme parts
   * in {@code data} (level 2; the body is level 1), sometimes padded to a size around the body
   * limit.
   */
  public static Arbitrary<String> eventos(String eventoId, String pedidoId) {
    Arbitrary<String> partes =
        Arbitraries.frequencyOf(
                Tuple.of(3, numerosExtremos()),
                Tuple.of(3, aninhamentos()),
                Tuple.of(2, textosUnicode()),
                Tuple.of(2, pertoDoLimiteDoJsonb()),
                Tuple.of(1, muitosNumerosExpandidos()),
                Tuple.of(1, muitasChaves()),
                Tuple.of(2, chavesLongas()))
            .list()
            .ofMinSize(1)
            .ofMaxSize(3)
            .map(
                lista -> {
                  List<String> numeradas = new ArrayList<>();
                  for (int i = 0; i < lista.size(); i++) {
                    // Keys of each part are made unique by their position.
                    numeradas.add(lista.get(i).replace("\"@", "\"p" + i + "_"));
                  }
                  return String.join(", ", numeradas);
                });
    Arbitrary<Integer> tamanhoAlvo =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just(0)),
            Tuple.of(
                2, Arbitraries.of(BYTES_DO_CORPO - 1, BYTES_DO_CORPO, BYTES_DO_CORPO + 1, 1 << 19)),
            Tuple.of(1, Arbitraries.integers().between(BYTES_DO_CORPO - 4096, BYTES_DO_CORPO)));
    return Combinators.combine(Arbitraries.of(TIPOS), partes, tamanhoAlvo)
        .as((tipo, extras, alvo) -> montar(eventoId, pedidoId, tipo, extras, alvo));
  }

  /** The event, its extreme parts in {@code data}, and a pad reaching {@code alvo} bytes if > 0. */
  static String montar(String eventoId, String pedidoId, String tipo, String extras, int alvo) {
    String inicio =
        "{\"id\": \""
            + eventoId
            + "\", \"type\": \""
            + tipo
            + "\", \"occurred_at\": \"2026-12-01T12:00:00.000Z\", \"data\": {\"id\": \""
            + pedidoId
            + "\", \"status\": \"paid\", "
            + extras;
    String fim = "}}";
    if (alvo <= 0) {
      return inicio + fim;
    }
    String semEnchimento = inicio + ", \"pad\": \"\"" + fim;
    int falta = alvo - semEnchimento.getBytes(StandardCharsets.UTF_8).length;
    if (falta < 0) {
      return inicio + fim;
    }
    return inicio + ", \"pad\": \"" + "x".repeat(falta) + "\"" + fim;
  }

  /** Numbers at the edges of length and scale, alone and in arrays. */
  static Arbitrary<String> numerosExtremos() {
    Arbitrary<String> expoentes =
        Combinators.combine(
                Arbitraries.of("1", "9", "-1", "1.5", "-0.0", "0", "12345678901234567890"),
                Arbitraries.of("e", "E", "e+", "E-", "e-", "e00"),
                Arbitraries.oneOf(
                    Arbitraries.of(
                        EXPOENTE - 20,
                        EXPOENTE - 1,
                        EXPOENTE,
                        EXPOENTE + 1,
                        999,
                        1000,
                        1_000_000,
                        0),
                    Arbitraries.integers().between(0, EXPOENTE + 30)))
            .as((mantissa, e, expoente) -> mantissa + e + expoente);
    Arbitrary<String> digitos =
        Combinators.combine(
                Arbitraries.of("", "-"),
                Arbitraries.of(
                    CARACTERES_DE_NUMERO - 2,
                    CARACTERES_DE_NUMERO - 1,
                    CARACTERES_DE_NUMERO,
                    CARACTERES_DE_NUMERO + 1,
                    1000,
                    1001),
                Arbitraries.of("", ".5", "e5", ".000", "e-300"),
                Arbitraries.longs())
            .as(
                (sinal, n, cauda, semente) -> {
                  Random r = new Random(semente);
                  StringBuilder numero = new StringBuilder(sinal).append(1 + r.nextInt(9));
                  while (numero.length() + cauda.length() < n) {
                    numero.append(r.nextInt(10));
                  }
                  return numero.append(cauda).toString();
                });
    Arbitrary<String> miudos =
        Arbitraries.of(
            "-0",
            "-0.0",
            "0e-400",
            "0e-401",
            "0.000e5",
            "1.000000000",
            "-12.340e+002",
            "1e-400",
            "-1e-400",
            "9.999e399",
            "1E400",
            "1e999",
            "1e1000",
            "1e-1000",
            "0e1000");
    Arbitrary<String> numero = Arbitraries.oneOf(expoentes, digitos, miudos, numeros());
    return numero
        .list()
        .ofMinSize(1)
        .ofMaxSize(8)
        .map(
            lista -> {
              StringBuilder json = new StringBuilder("\"@n\": [").append(String.join(", ", lista));
              json.append("]");
              for (int i = 0; i < lista.size(); i++) {
                json.append(", \"@n").append(i).append("\": ").append(lista.get(i));
              }
              return json.toString();
            });
  }

  /**
   * Nesting so that the body's total depth is at and around the limit, and far beyond it: arrays,
   * objects or both, the innermost holding an ordinary value.
   */
  static Arbitrary<String> aninhamentos() {
    Arbitrary<Integer> profundidade =
        Arbitraries.oneOf(
            Arbitraries.of(
                PROFUNDIDADE - 1,
                PROFUNDIDADE,
                PROFUNDIDADE + 1,
                PROFUNDIDADE + 8,
                PROFUNDIDADE + 9,
                500,
                501,
                1000),
            Arbitraries.integers().between(3, PROFUNDIDADE + 2));
    return Combinators.combine(profundidade, Arbitraries.of(0, 1, 2), valores(0))
        .as(
            (total, forma, folha) -> {
              // "x" is a member of data (level 2): its containers are levels 3 to total.
              int niveis = total - 2;
              StringBuilder abre = new StringBuilder();
              StringBuilder fecha = new StringBuilder();
              for (int i = 0; i < niveis; i++) {
                boolean objeto = forma == 1 || (forma == 2 && i % 2 == 0);
                abre.append(objeto ? "{\"a\": " : "[");
                fecha.append(objeto ? '}' : ']');
              }
              return "\"@x\": " + abre + folha + fecha.reverse();
            });
  }

  /** Strings of every kind of character, escaped or not, some of them long and astral. */
  static Arbitrary<String> textosUnicode() {
    Arbitrary<String> longo =
        Combinators.combine(
                Arbitraries.of("😀", "\u4e2d", "\u00e9", "\\u0001", "\\u00e9", "\\ud83d\\ude00"),
                Arbitraries.of(1_000, 50_000, 120_000))
            .as(String::repeat)
            .map(conteudo -> "\"" + conteudo + "\"");
    Arbitrary<String> varios =
        textos().list().ofMinSize(1).ofMaxSize(6).map(l -> "[" + String.join(", ", l) + "]");
    return Arbitraries.oneOf(longo, varios).map(valor -> "\"@u\": " + valor);
  }

  /**
   * Numbers that jsonb writes with 401 digits, as many as bring PostgreSQL's text of the body to
   * just under or just over {@code BYTES_NO_JSONB}, and a string to land on any byte between.
   */
  static Arbitrary<String> pertoDoLimiteDoJsonb() {
    // Each "1e400" is 401 characters and ", " in jsonb; the rest of the body takes a few hundred.
    int porNumero = EXPOENTE + 1 + 2;
    int quantos = BYTES_NO_JSONB / porNumero;
    return Combinators.combine(
            Arbitraries.integers().between(quantos - 3, quantos + 1),
            Arbitraries.integers().between(0, porNumero))
        .as(
            (n, resto) ->
                "\"@j\": ["
                    + ("1e" + EXPOENTE + ", ").repeat(n - 1)
                    + "1e"
                    + EXPOENTE
                    + "], \"@r\": \""
                    + "y".repeat(resto)
                    + "\"");
  }

  /** The issue's other case: many small numbers, each 1,000 characters in jsonb. */
  static Arbitrary<String> muitosNumerosExpandidos() {
    return Combinators.combine(
            Arbitraries.of("1e999", "1e400", "-1e-399", "1e401"),
            Arbitraries.of(1, 10, 1_000, 100_000))
        .as((numero, n) -> "\"@m\": [" + (numero + ",").repeat(n - 1) + numero + "]");
  }

  /** An object with thousands of keys. */
  static Arbitrary<String> muitasChaves() {
    return Arbitraries.of(1_000, 10_000, 50_000)
        .map(
            n -> {
              StringBuilder json = new StringBuilder("\"@k\": {");
              for (int i = 0; i < n; i++) {
                json.append(i == 0 ? "" : ", ").append("\"k").append(i).append("\": ").append(i);
              }
              return json.append('}').toString();
            });
  }

  /**
   * Keys of {@code CARACTERES_DE_NOME} characters and one either side, of one-, two-, three- and
   * four-byte characters, raw or escaped.
   */
  static Arbitrary<String> chavesLongas() {
    return Combinators.combine(
            Arbitraries.of("k", "\u00e9", "\u4e2d", "😀"),
            Arbitraries.of(CARACTERES_DE_NOME - 1, CARACTERES_DE_NOME, CARACTERES_DE_NOME + 1),
            Arbitraries.of(true, false))
        .as(
            (letra, n, cru) -> {
              StringBuilder nome = new StringBuilder();
              while (nome.length() + letra.length() <= n) {
                nome.append(letra);
              }
              while (nome.length() < n) {
                nome.append('k');
              }
              // "@" would be renumbered; this key is unique in its object on its own.
              return escrever(nome.toString(), new Random(n), cru ? 0.0 : 1.0) + ": true";
            });
  }

  /** Ordinary JSON values of every kind, nested up to {@code profundidade} levels. */
  public static Arbitrary<String> valores(int profundidade) {
    Arbitrary<String> folhas =
        Arbitraries.frequencyOf(
            Tuple.of(3, textos()),
            Tuple.of(3, numeros()),
            Tuple.of(1, Arbitraries.of("true", "false", "null")));
    if (profundidade == 0) {
      return folhas;
    }
    Arbitrary<String> filhos = Arbitraries.lazy(() -> valores(profundidade - 1));
    Arbitrary<String> arrays =
        Combinators.combine(filhos.list().ofMaxSize(4), espacos())
            .as((itens, espaco) -> "[" + espaco + String.join("," + espaco, itens) + "]");
    Arbitrary<String> objetos =
        Combinators.combine(
                Arbitraries.maps(cadeias(), filhos).ofMaxSize(4), espacos(), Arbitraries.longs())
            .as((campos, espaco, semente) -> objeto(campos, espaco, new Random(semente)));
    return Arbitraries.frequencyOf(Tuple.of(3, folhas), Tuple.of(1, arrays), Tuple.of(1, objetos));
  }

  /** Members (not the braces) of an object: keys written with random escapes. */
  static String membros(Map<String, String> campos, String espaco, Random r) {
    List<String> membros = new ArrayList<>();
    for (Map.Entry<String, String> campo : campos.entrySet()) {
      membros.add(escrever(campo.getKey(), r, 0.3) + espaco + ":" + espaco + campo.getValue());
    }
    return String.join("," + espaco, membros);
  }

  public static String objeto(Map<String, String> campos, String espaco, Random r) {
    return "{" + espaco + membros(campos, espaco, r) + espaco + "}";
  }

  /** Whitespace between tokens, which jsonb drops: all four kinds JSON allows. */
  public static Arbitrary<String> espacos() {
    return Arbitraries.of("", " ", "  ", "\n", "\t", "\r\n ");
  }

  /**
   * JSON string literals of any storable content (no NUL, no lone surrogate), escaped at random.
   */
  static Arbitrary<String> textos() {
    return Combinators.combine(cadeias(), Arbitraries.longs(), Arbitraries.of(0.0, 0.3, 1.0))
        .as((valor, semente, escapes) -> escrever(valor, new Random(semente), escapes));
  }

  /** Strings of any code point but NUL and the surrogates, most often a few characters. */
  public static Arbitrary<String> cadeias() {
    Arbitrary<Integer> pontos =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.integers().between(0x20, 0x7e)),
            Tuple.of(2, Arbitraries.of((int) '"', (int) '\\', (int) '/', 0x7f)),
            Tuple.of(2, Arbitraries.integers().between(0x01, 0x1f)),
            Tuple.of(2, Arbitraries.integers().between(0x80, 0x7ff)),
            Tuple.of(2, Arbitraries.integers().between(0x800, 0xd7ff)),
            Tuple.of(1, Arbitraries.integers().between(0xe000, 0xffff)),
            Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10ffff)));
    return pontos
        .list()
        .ofMaxSize(12)
        .map(
            lista -> {
              StringBuilder s = new StringBuilder();
              lista.forEach(s::appendCodePoint);
              return s.toString();
            });
  }

  /**
   * Numbers as JSON allows them: sign, integer part, decimals with trailing zeros, exponents with
   * either letter, a sign and leading zeros; all within the envelope (at most 57 characters,
   * magnitude and scale under 400).
   */
  public static Arbitrary<String> numeros() {
    Arbitrary<String> inteiro =
        Arbitraries.oneOf(
            Arbitraries.just("0"),
            Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(29).map(d -> "1" + d),
            Arbitraries.integers().between(1, 9).map(String::valueOf));
    Arbitrary<String> decimais =
        Arbitraries.oneOf(
            Arbitraries.just(""),
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(17).map(d -> "." + d),
            Arbitraries.strings()
                .numeric()
                .ofMinLength(1)
                .ofMaxLength(4)
                .map(d -> "." + d + "000"));
    Arbitrary<String> expoente =
        Arbitraries.oneOf(
            Arbitraries.just(""),
            Combinators.combine(
                    Arbitraries.of("e", "E"),
                    Arbitraries.of("", "+", "-"),
                    Arbitraries.of("", "0", "00"),
                    Arbitraries.integers().between(0, 360))
                .as((e, sinal, zeros, valor) -> e + sinal + zeros + valor));
    Arbitrary<String> compostos =
        Combinators.combine(Arbitraries.of("", "", "-"), inteiro, decimais, expoente)
            .as((sinal, i, d, e) -> sinal + i + d + e);
    // The cases where jsonb's text differs most from what was sent.
    Arbitrary<String> marcantes =
        Arbitraries.of(
            "-0",
            "-0.0",
            "-0e0",
            "0e-5",
            "-0.000E+3",
            "1.50e1",
            "1E+2",
            "1e-5",
            "0e5",
            "-12.340",
            "123e-2",
            "5e-360",
            "-9.99e360",
            "100000000000000000000e-20");
    return Arbitraries.frequencyOf(Tuple.of(5, compostos), Tuple.of(1, marcantes));
  }

  /**
   * A JSON string literal for {@code valor}: {@code "} and {@code \} always escaped, control
   * characters as short or {@code \}{@code u} escapes, {@code /} sometimes as {@code \/}, and any
   * other character escaped (astral ones as a surrogate pair of escapes, in either case of hex)
   * with probability {@code escapes}.
   */
  public static String escrever(String valor, Random r, double escapes) {
    StringBuilder json = new StringBuilder("\"");
    for (int i = 0; i < valor.length(); ) {
      int ponto = valor.codePointAt(i);
      i += Character.charCount(ponto);
      String curto =
          switch (ponto) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '/' -> "\\/";
            default -> null;
          };
      boolean obrigatorio = ponto == '"' || ponto == '\\' || ponto < 0x20;
      if (!obrigatorio && r.nextDouble() >= escapes) {
        json.appendCodePoint(ponto);
      } else if (curto != null && r.nextInt(4) != 0) {
        json.append(curto);
      } else {
        for (char c : Character.toChars(ponto)) {
          String hex = String.format("%04x", (int) c);
          json.append("\\u").append(r.nextBoolean() ? hex : hex.toUpperCase());
        }
      }
    }
    return json.append('"').toString();
  }

  /** An object's members with keys made unique and none of {@code proibidas}. */
  public static Map<String, String> semChaves(Map<String, String> campos, String... proibidas) {
    Map<String, String> limpos = new LinkedHashMap<>(campos);
    for (String proibida : proibidas) {
      limpos.remove(proibida);
    }
    return limpos;
  }
}
