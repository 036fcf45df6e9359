package pedidos.pontaaponta;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/**
 * The metric names the repository's Prometheus rules and Grafana dashboard ask for, read from their
 * PromQL (no promtool here): string literals, label matchers, ranges and grouping clauses are taken
 * out, then every identifier that is not a function, a keyword or a number is a metric name.
 */
final class MetricasNasRegras {

  static final Path REGRAS = Path.of("..", "..", "docs", "observabilidade", "regras-de-alerta.yml");
  static final Path PAINEL = Path.of("..", "..", "docs", "observabilidade", "painel-grafana.json");

  private static final Pattern TEXTO = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|`[^`]*`");
  private static final Pattern SELETOR = Pattern.compile("\\{[^{}]*\\}");
  private static final Pattern INTERVALO = Pattern.compile("\\[[^\\]]*\\]");
  private static final Pattern AGRUPAMENTO =
      Pattern.compile(
          "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern IDENTIFICADOR =
      Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");
  private static final Set<String> PALAVRAS =
      Set.of(
          "and",
          "or",
          "unless",
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "bool",
          "offset",
          "inf",
          "nan",
          "e");

  private MetricasNasRegras() {}

  /** One PromQL expression and where it came from, to name it in a failure. */
  record Expressao(String origem, String promql) {}

  static List<Expressao> dasRegras(Path arquivo) {
    Map<String, Object> raiz = ler(arquivo);
    List<Expressao> expressoes = new ArrayList<>();
    for (Object grupo : lista(raiz.get("groups"))) {
      for (Object regra : lista(((Map<?, ?>) grupo).get("rules"))) {
        Map<?, ?> campos = (Map<?, ?>) regra;
        Object nome = campos.get("alert") != null ? campos.get("alert") : campos.get("record");
        expressoes.add(new Expressao("rule " + nome, String.valueOf(campos.get("expr"))));
      }
    }
    return expressoes;
  }

  static List<Expressao> doPainel(Path arquivo) {
    Map<String, Object> raiz = ler(arquivo);
    List<Expressao> expressoes = new ArrayList<>();
    for (Object painel : lista(raiz.get("panels"))) {
      Map<?, ?> campos = (Map<?, ?>) painel;
      for (Object alvo : lista(campos.get("targets"))) {
        expressoes.add(
            new Expressao(
                "panel \"" + campos.get("title") + "\"",
                String.valueOf(((Map<?, ?>) alvo).get("expr"))));
      }
    }
    return expressoes;
  }

  static Set<String> metricas(String promql) {
    String resto = TEXTO.matcher(promql).replaceAll(" ");
    resto = SELETOR.matcher(resto).replaceAll(" ");
    resto = INTERVALO.matcher(resto).replaceAll(" ");
    resto = AGRUPAMENTO.matcher(resto).replaceAll(" ");
    Set<String> nomes = new TreeSet<>();
    Matcher m = IDENTIFICADOR.matcher(resto);
    while (m.find()) {
      String nome = m.group(1);
      boolean funcao = m.group(2) != null;
      if (!funcao && !PALAVRAS.contains(nome.toLowerCase(java.util.Locale.ROOT))) {
        nomes.add(nome);
      }
    }
    return nomes;
  }

  /** Names of the series in a Prometheus text exposition. */
  static Set<String> expostas(String exposicao) {
    Set<String> nomes = new TreeSet<>();
    exposicao
        .lines()
        .filter(linha -> !linha.isBlank() && !linha.startsWith("#"))
        .map(linha -> linha.split("[{ ]", 2)[0])
        .forEach(nomes::add);
    return nomes;
  }

  private static Map<String, Object> ler(Path arquivo) {
    try {
      // JSON is YAML: one reader for both files.
      return new Yaml().load(Files.readString(arquivo));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<?> lista(Object valor) {
    return valor == null ? List.of() : (List<?>) valor;
  }
}
