package pedidos.receptor;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/**
 * Random JSON for the property tests, as text: objects, arrays, numbers, booleans, null and strings
 * of any UTF-16 content (NUL and lone surrogates included), written with escapes or raw at random.
 */
public final class JsonAleatorio {

  private JsonAleatorio() {}

  /** Any string: every char, NUL and unpaired surrogates included. */
  public static Arbitrary<String> textos() {
    return Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(12),
        Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(12),
        Arbitraries.of("", " ", "\u0000", "a\u0000", "\ud800", "\udc00x", "😀", "é", "\\", "\""));
  }

  /** A JSON value, nested up to {@code profundidade}. */
  public static Arbitrary<String> valores(int profundidade) {
    Arbitrary<String> folhas =
        Arbitraries.oneOf(
            textos().flatMap(JsonAleatorio::texto),
            Arbitraries.longs().map(n -> Long.toString(n)),
            Arbitraries.bigDecimals()
                .between(new BigDecimal("-1e12"), new BigDecimal("1e12"))
                .ofScale(4)
                .map(BigDecimal::toString),
            Arbitraries.of("true", "false", "null", "0", "-0", "1e3", "2.5E-3"));
    if (profundidade == 0) {
      return folhas;
    }
    Arbitrary<String> filhos = Arbitraries.lazy(() -> valores(profundidade - 1));
    Arbitrary<String> arrays =
        filhos.list().ofMaxSize(4).map(itens -> "[" + String.join(",", itens) + "]");
    Arbitrary<String> objetos =
        Arbitraries.maps(textos(), filhos).ofMaxSize(4).flatMap(JsonAleatorio::objeto);
    return Arbitraries.frequencyOf(Tuple.of(4, folhas), Tuple.of(1, arrays), Tuple.of(1, objetos));
  }

  public static Arbitrary<String> objeto(Map<String, String> campos) {
    List<Map.Entry<String, String>> entradas = List.copyOf(campos.entrySet());
    if (entradas.isEmpty()) {
      return Arbitraries.just("{}");
    }
    return Arbitraries.just(entradas)
        .flatMap(
            lista ->
                Arbitraries.of(true, false)
                    .list()
                    .ofSize(lista.size())
                    .map(
                        crus -> {
                          StringBuilder json = new StringBuilder("{");
                          for (int i = 0; i < lista.size(); i++) {
                            if (i > 0) {
                              json.append(',');
                            }
                            json.append(escrever(lista.get(i).getKey(), crus.get(i)))
                                .append(':')
                                .append(lista.get(i).getValue());
                          }
                          return json.append('}').toString();
                        }));
  }

  /** A JSON string literal for {@code valor}, with non-ASCII written raw or escaped at random. */
  public static Arbitrary<String> texto(String valor) {
    return Arbitraries.of(true, false).map(cru -> escrever(valor, cru));
  }

  public static String escrever(String valor, boolean cru) {
    StringBuilder json = new StringBuilder("\"");
    for (int i = 0; i < valor.length(); i++) {
      char c = valor.charAt(i);
      boolean parCompleto =
          Character.isHighSurrogate(c)
              && i + 1 < valor.length()
              && Character.isLowSurrogate(valor.charAt(i + 1));
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f || (Character.isSurrogate(c) && !(cru && parCompleto))) {
        json.append(String.format("\\u%04x", (int) c));
      } else if (c > 0x7e && !cru) {
        json.append(String.format("\\u%04x", (int) c));
      } else if (parCompleto) {
        json.append(c).append(valor.charAt(++i));
      } else {
        json.append(c);
      }
    }
    return json.append('"').toString();
  }
}
