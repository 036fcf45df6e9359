package pedidos.bancada;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Rewrites the driver's section of a Markdown file, between two markers, and leaves the rest of the
 * file as it is; without the markers the section goes right after the file's title.
 */
final class SecaoDoDoc {

  static final String INICIO = "<!-- bancada: written by ferramentas/bancada, do not edit -->";
  static final String FIM = "<!-- bancada: end -->";

  private SecaoDoDoc() {}

  static void escrever(Path doc, String secao) throws IOException {
    String atual = Files.exists(doc) ? Files.readString(doc, StandardCharsets.UTF_8) : "";
    String bloco = INICIO + "\n\n" + secao.strip() + "\n\n" + FIM;
    String novo;
    int a = atual.indexOf(INICIO);
    int b = atual.indexOf(FIM);
    if (a >= 0 && b > a) {
      novo = atual.substring(0, a) + bloco + atual.substring(b + FIM.length());
    } else {
      int fimDoTitulo = atual.startsWith("# ") ? atual.indexOf('\n') + 1 : 0;
      novo =
          atual.substring(0, fimDoTitulo)
              + (fimDoTitulo > 0 ? "\n" : "")
              + bloco
              + "\n\n"
              + atual.substring(fimDoTitulo).stripLeading();
    }
    Files.writeString(doc, novo, StandardCharsets.UTF_8);
  }
}
