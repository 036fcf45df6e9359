package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation's links lead somewhere: every relative link of every Markdown file in the
 * repository names a file that exists and, with an anchor, a heading that file has (GitHub's
 * anchors). The README stays short and is the map: every page under docs/ is reachable from it.
 */
class LinksDaDocumentacaoTest {

  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern TITULO = Pattern.compile("^#{1,6} (.+)$");

  private final Path raiz = JarDoServico.raiz();

  @Test
  void todoLinkRelativoLevaAUmArquivoEAUmTituloQueExistem() throws IOException {
    List<String> quebrados = new ArrayList<>();
    List<Path> paginas = markdown();
    assertThat(paginas).contains(raiz.resolve("README.md"), raiz.resolve("docs/kafka.md"));
    for (Path pagina : paginas) {
      for (String alvo : links(pagina)) {
        if (alvo.matches("^[a-z][a-z+.-]*:.*")) {
          continue; // http:, https:, mailto:
        }
        String caminho = alvo.contains("#") ? alvo.substring(0, alvo.indexOf('#')) : alvo;
        String ancora = alvo.contains("#") ? alvo.substring(alvo.indexOf('#') + 1) : null;
        Path destino = caminho.isEmpty() ? pagina : pagina.getParent().resolve(caminho).normalize();
        if (!Files.exists(destino)) {
          quebrados.add(raiz.relativize(pagina) + ": " + alvo + " (no such file)");
        } else if (ancora != null
            && destino.toString().endsWith(".md")
            && !ancoras(destino).contains(ancora)) {
          quebrados.add(raiz.relativize(pagina) + ": " + alvo + " (no such heading)");
        }
      }
    }
    assertThat(quebrados).isEmpty();
  }

  @Test
  void oReadmeECurtoELevaATodaPaginaDeDocs() throws IOException {
    Path readme = raiz.resolve("README.md");
    assertThat(Files.readAllLines(readme)).hasSizeLessThan(250);
    Set<Path> alcancadas = new HashSet<>();
    for (String alvo : links(readme)) {
      if (!alvo.matches("^[a-z][a-z+.-]*:.*")) {
        String caminho = alvo.contains("#") ? alvo.substring(0, alvo.indexOf('#')) : alvo;
        alcancadas.add(raiz.resolve(caminho).normalize());
      }
    }
    try (Stream<Path> docs = Files.list(raiz.resolve("docs"))) {
      List<Path> paginas = docs.filter(p -> p.toString().endsWith(".md")).toList();
      assertThat(alcancadas).containsAll(paginas);
    }
    assertThat(alcancadas).contains(raiz.resolve("docs/observabilidade/README.md"));
  }

  private List<Path> markdown() throws IOException {
    try (Stream<Path> arvore = Files.walk(raiz)) {
      return arvore
          .filter(p -> p.toString().endsWith(".md"))
          .filter(
              p -> !raiz.relativize(p).toString().matches("(^|.*/)(target|node_modules|\\..*)/.*"))
          .toList();
    }
  }

  /** The link targets of a page, outside code blocks and code spans. */
  private static List<String> links(Path pagina) {
    List<String> alvos = new ArrayList<>();
    boolean cerca = false;
    for (String linha : linhas(pagina)) {
      if (linha.startsWith("```")) {
        cerca = !cerca;
        continue;
      }
      if (!cerca) {
        Matcher m = LINK.matcher(linha.replaceAll("`[^`]*`", ""));
        while (m.find()) {
          alvos.add(m.group(1));
        }
      }
    }
    return alvos;
  }

  /** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to hyphens. */
  private static Set<String> ancoras(Path pagina) {
    Set<String> ancoras = new HashSet<>();
    Map<String, Integer> vistas = new HashMap<>();
    boolean cerca = false;
    for (String linha : linhas(pagina)) {
      if (linha.startsWith("```")) {
        cerca = !cerca;
        continue;
      }
      Matcher m = TITULO.matcher(linha);
      if (!cerca && m.matches()) {
        String ancora =
            m.group(1)
                .strip()
                .toLowerCase()
                .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
                .replace(' ', '-');
        int vezes = vistas.merge(ancora, 1, Integer::sum);
        ancoras.add(vezes == 1 ? ancora : ancora + "-" + (vezes - 1));
      }
    }
    return ancoras;
  }

  private static List<String> linhas(Path pagina) {
    try {
      return Files.readAllLines(pagina);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
