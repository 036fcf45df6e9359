package pedidos.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Where a service's runnable jar is: {@code <module>/target/<module>-<version>.jar} under the
 * repository root. The root is found from the working directory or from where this class was
 * loaded, whichever has the root's {@code pom.xml} and {@code receptor/} above it, so the launcher
 * (run from the root), the end-to-end tests (run from their module) and the benchmark (run from
 * anywhere) find the same jar. The system property {@value #PROPRIEDADE_DA_RAIZ} names the root
 * outright.
 */
public final class JarDoServico {

  /** System property naming the repository root, when it cannot be found from here. */
  public static final String PROPRIEDADE_DA_RAIZ = "pedidos.raiz";

  private static final String VERSAO = lerVersao();

  private JarDoServico() {}

  /** The jar of a service's module, e.g. {@code "receptor"}; it must exist. */
  public static Path de(String modulo) {
    Path raiz = raiz();
    Path jar = raiz.resolve(modulo).resolve("target").resolve(nome(modulo));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar
              + " does not exist: build it first (mvn -q -B -DskipTests package -pl :"
              + modulo
              + " -am)");
    }
    return jar;
  }

  /** {@code <module>-<version>.jar}. */
  public static String nome(String modulo) {
    return modulo + "-" + VERSAO + ".jar";
  }

  /** The project's version, as Maven built this module. */
  public static String versao() {
    return VERSAO;
  }

  /** The repository root: the nearest directory above here holding {@code receptor/} and a pom. */
  public static Path raiz() {
    String dada = System.getProperty(PROPRIEDADE_DA_RAIZ);
    if (dada != null && !dada.isBlank()) {
      return Path.of(dada).toAbsolutePath().normalize();
    }
    List<Path> pontosDePartida = new ArrayList<>();
    pontosDePartida.add(Path.of("").toAbsolutePath());
    try {
      pontosDePartida.add(
          Path.of(JarDoServico.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    } catch (URISyntaxException | RuntimeException e) {
      // a class loaded from somewhere that is not a file: only the working directory is left
    }
    for (Path inicio : pontosDePartida) {
      for (Path d = inicio.normalize(); d != null; d = d.getParent()) {
        if (Files.isDirectory(d.resolve("receptor")) && Files.isRegularFile(d.resolve("pom.xml"))) {
          return d;
        }
      }
    }
    throw new IllegalStateException(
        "no repository root (a directory with receptor/ and pom.xml) above "
            + pontosDePartida
            + "; set -D"
            + PROPRIEDADE_DA_RAIZ);
  }

  private static String lerVersao() {
    try (InputStream entrada = JarDoServico.class.getResourceAsStream("projeto.properties")) {
      if (entrada == null) {
        throw new IllegalStateException("infra-local was built without projeto.properties");
      }
      Properties propriedades = new Properties();
      propriedades.load(entrada);
      return propriedades.getProperty("versao");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
