package pedidos.simulador;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code --name=value} flags, each known, each at most once. */
final class Argumentos {

  private static final Pattern DURACAO = Pattern.compile("(\\d+)(ms|s|m|h)");

  private final Map<String, String> valores;

  private Argumentos(Map<String, String> valores) {
    this.valores = valores;
  }

  /**
   * @throws IllegalArgumentException on an unknown, repeated or malformed flag
   */
  static Argumentos ler(String[] args, Set<String> conhecidos) {
    Map<String, String> valores = new LinkedHashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("not a --flag: " + arg);
      }
      int igual = arg.indexOf('=');
      String nome = igual < 0 ? arg.substring(2) : arg.substring(2, igual);
      String valor = igual < 0 ? "true" : arg.substring(igual + 1);
      if (!conhecidos.contains(nome)) {
        throw new IllegalArgumentException("unknown flag --" + nome);
      }
      if (valores.put(nome, valor) != null) {
        throw new IllegalArgumentException("--" + nome + " given twice");
      }
    }
    return new Argumentos(valores);
  }

  boolean tem(String nome) {
    return valores.containsKey(nome);
  }

  String texto(String nome, String padrao) {
    return valores.getOrDefault(nome, padrao);
  }

  String obrigatorio(String nome) {
    String valor = valores.get(nome);
    if (valor == null || valor.isEmpty()) {
      throw new IllegalArgumentException("--" + nome + " is required");
    }
    return valor;
  }

  int inteiro(String nome, int padrao) {
    String valor = valores.get(nome);
    try {
      return valor == null ? padrao : Integer.parseInt(valor);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + nome + " must be an integer: " + valor);
    }
  }

  long longo(String nome, long padrao) {
    String valor = valores.get(nome);
    try {
      return valor == null ? padrao : Long.parseLong(valor);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + nome + " must be an integer: " + valor);
    }
  }

  double decimal(String nome, double padrao) {
    String valor = valores.get(nome);
    try {
      return valor == null ? padrao : Double.parseDouble(valor);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + nome + " must be a number: " + valor);
    }
  }

  boolean booleano(String nome, boolean padrao) {
    String valor = valores.get(nome);
    if (valor == null) {
      return padrao;
    }
    return switch (valor) {
      case "true", "sim" -> true;
      case "false", "nao", "não" -> false;
      default -> throw new IllegalArgumentException("--" + nome + " must be true or false");
    };
  }

  Duration duracao(String nome, Duration padrao) {
    String valor = valores.get(nome);
    return valor == null ? padrao : lerDuracao(nome, valor);
  }

  /** {@code 500ms}, {@code 120s}, {@code 2m}, {@code 1h}, or ISO-8601 ({@code PT2M}). */
  static Duration lerDuracao(String nome, String valor) {
    Matcher partes = DURACAO.matcher(valor);
    if (partes.matches()) {
      long quantidade = Long.parseLong(partes.group(1));
      return switch (partes.group(2)) {
        case "ms" -> Duration.ofMillis(quantidade);
        case "s" -> Duration.ofSeconds(quantidade);
        case "m" -> Duration.ofMinutes(quantidade);
        default -> Duration.ofHours(quantidade);
      };
    }
    try {
      return Duration.parse(valor);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "--" + nome + " must be a duration such as 500ms, 120s, 2m: " + valor);
    }
  }
}
