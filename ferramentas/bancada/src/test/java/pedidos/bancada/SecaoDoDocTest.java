package pedidos.bancada;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecaoDoDocTest {

  @TempDir Path diretorio;

  @Test
  void reescreveSoOQueEstaEntreAsMarcas() throws Exception {
    Path doc = diretorio.resolve("doc.md");
    Files.writeString(
        doc,
        "# T\n\nantes\n\n"
            + SecaoDoDoc.INICIO
            + "\n\nvelho\n\n"
            + SecaoDoDoc.FIM
            + "\n\ndepois, escrito a mao\n");

    SecaoDoDoc.escrever(doc, "## novo\n");

    assertThat(Files.readString(doc))
        .isEqualTo(
            "# T\n\nantes\n\n"
                + SecaoDoDoc.INICIO
                + "\n\n## novo\n\n"
                + SecaoDoDoc.FIM
                + "\n\ndepois, escrito a mao\n");
  }

  @Test
  void semMarcasASecaoVemLogoDepoisDoTitulo() throws Exception {
    Path doc = diretorio.resolve("doc.md");
    Files.writeString(doc, "# T\n\nresto\n");

    SecaoDoDoc.escrever(doc, "## novo");
    SecaoDoDoc.escrever(doc, "## de novo");

    assertThat(Files.readString(doc))
        .isEqualTo(
            "# T\n\n" + SecaoDoDoc.INICIO + "\n\n## de novo\n\n" + SecaoDoDoc.FIM + "\n\nresto\n");
  }
}
