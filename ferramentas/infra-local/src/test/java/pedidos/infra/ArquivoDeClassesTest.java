package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArquivoDeClassesTest {

  /** A jar that Spring Boot's tools cannot extract is run as it is, with no cache options. */
  @Test
  void semOModoDeExtracaoRodaOJarComoEle(@TempDir Path pasta) throws Exception {
    Path jar = pasta.resolve("servico-1.0.jar");
    var manifesto = new Manifest();
    manifesto.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifesto.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "nao.Existe");
    try (var saida = new JarOutputStream(Files.newOutputStream(jar), manifesto)) {
      saida.flush();
    }

    ArquivoDeClasses.Partida partida = ArquivoDeClasses.preparar(jar);

    assertThat(partida.jar()).isEqualTo(jar);
    assertThat(partida.opcoes()).isEmpty();
  }

  @Test
  void umJarQueNaoExisteFicaComoEstaParaOServicoDizerQueFalta(@TempDir Path pasta) {
    Path jar = pasta.resolve("ausente.jar");

    assertThat(ArquivoDeClasses.preparar(jar))
        .isEqualTo(new ArquivoDeClasses.Partida(jar, java.util.List.of()));
  }
}
