package pedidos.pontaaponta;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.sessions.JqwikSession;
import pedidos.receptor.JsonExtremo;

/**
 * Odd but valid event bodies for the whole pipeline, drawn from the receptor's generator ({@link
 * JsonExtremo#eventos}) with a fixed seed per body, so that a failing body is the same on every run
 * and can be drawn alone; and a summary of each body's shape for failure messages.
 */
final class CorposExtremos {

  /** Large enough for every kind of extreme part to come out several times (genSize of jqwik). */
  private static final int TAMANHO_DA_GERACAO = 1000;

  private static final Pattern TIPO = Pattern.compile("\"type\": \"([^\"]+)\"");
  // JsonExtremo numbers the keys of each extreme part it puts in data: p0_n, p1_x...
  private static final Pattern PARTE = Pattern.compile("\"p\\d_([a-z])");

  private CorposExtremos() {}

  /** One extreme event of a new order. */
  record CorpoExtremo(int indice, String eventoId, String pedidoId, String corpo) {

    byte[] bytes() {
      return corpo.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return "#" + indice + " " + eventoId + " " + resumo(corpo);
    }
  }

  /**
   * {@code quantos} bodies; body {@code i} is drawn with seed {@code semente + i} and is about
   * order {@code ord_extremo_<i>}.
   */
  static List<CorpoExtremo> sortear(int quantos, long semente) {
    List<CorpoExtremo> corpos = new ArrayList<>();
    JqwikSession.run(
        () -> {
          for (int i = 0; i < quantos; i++) {
            String eventoId = "evt_extremo_" + i;
            String pedidoId = "ord_extremo_" + i;
            String corpo =
                JsonExtremo.eventos(eventoId, pedidoId)
                    .generator(TAMANHO_DA_GERACAO)
                    .next(new Random(semente + i))
                    .value();
            corpos.add(new CorpoExtremo(i, eventoId, pedidoId, corpo));
          }
        });
    return corpos;
  }

  /**
   * What makes a body extreme, read from its text: type, size, nesting, the longest number, key and
   * string, escapes and astral characters, the kinds of extreme parts and whether it was padded to
   * a size.
   */
  static String resumo(String corpo) {
    int profundidade = 0;
    int profundidadeMaxima = 0;
    int numero = 0;
    int maiorNumero = 0;
    int chaves = 0;
    int maiorChave = 0;
    int maiorTexto = 0;
    int escapesU = 0;
    int astrais = 0;
    boolean emTexto = false;
    int inicioDoTexto = 0;
    for (int i = 0; i < corpo.length(); i++) {
      char c = corpo.charAt(i);
      if (Character.isHighSurrogate(c)) {
        astrais++;
      }
      if (emTexto) {
        if (c == '\\') {
          if (corpo.charAt(i + 1) == 'u') {
            escapesU++;
          }
          i++;
        } else if (c == '"') {
          emTexto = false;
          int tamanho = i - inicioDoTexto - 1;
          int seguinte = i + 1;
          while (seguinte < corpo.length() && Character.isWhitespace(corpo.charAt(seguinte))) {
            seguinte++;
          }
          if (seguinte < corpo.length() && corpo.charAt(seguinte) == ':') {
            chaves++;
            maiorChave = Math.max(maiorChave, tamanho);
          } else {
            maiorTexto = Math.max(maiorTexto, tamanho);
          }
        }
        continue;
      }
      if (c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || (c >= '0' && c <= '9')) {
        numero++;
        maiorNumero = Math.max(maiorNumero, numero);
        continue;
      }
      numero = 0;
      switch (c) {
        case '"' -> {
          emTexto = true;
          inicioDoTexto = i;
        }
        case '{', '[' -> profundidadeMaxima = Math.max(profundidadeMaxima, ++profundidade);
        case '}', ']' -> profundidade--;
        default -> {}
      }
    }
    Matcher tipo = TIPO.matcher(corpo);
    TreeSet<String> partes = new TreeSet<>();
    Matcher parte = PARTE.matcher(corpo);
    while (parte.find()) {
      partes.add(
          switch (parte.group(1)) {
            case "n" -> "numbers";
            case "x" -> "nesting";
            case "u" -> "unicode";
            case "j", "r" -> "near-jsonb-limit";
            case "m" -> "expanded-numbers";
            case "k" -> "many-keys";
            default -> parte.group(1);
          });
    }
    if (maiorChave >= 900) {
      partes.add("long-key");
    }
    return "%s, %d bytes, depth %d, %d keys, longest key %d chars (raw), longest number %d chars,"
            .formatted(
                tipo.find() ? tipo.group(1) : "?",
                corpo.getBytes(StandardCharsets.UTF_8).length,
                profundidadeMaxima,
                chaves,
                maiorChave,
                maiorNumero)
        + " longest string %d chars (raw), %d \\u escapes, %d astral chars, parts %s%s"
            .formatted(
                maiorTexto,
                escapesU,
                astrais,
                partes,
                corpo.contains("\"pad\": \"") ? ", padded" : "");
  }
}
