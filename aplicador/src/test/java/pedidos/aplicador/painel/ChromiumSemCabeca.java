package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Headless Chromium for the page tests: the DOM after the page's scripts ran, or a screenshot. */
final class ChromiumSemCabeca {

  private static final Path CHROMIUM =
      Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));

  private ChromiumSemCabeca() {}

  /** The DOM after the page's scripts ran, as headless Chromium prints it. */
  static String renderizar(String url, Path pasta) throws IOException, InterruptedException {
    Path saida = Files.createTempFile(pasta, "dom", ".html");
    executar(pasta, saida, List.of("--dump-dom", url));
    return Files.readString(saida, StandardCharsets.UTF_8);
  }

  /** A screenshot of the page, 1280 pixels wide, at scale 1, into {@code foto}. */
  static void fotografar(String url, Path pasta, Path foto, int altura)
      throws IOException, InterruptedException {
    executar(
        pasta,
        null,
        List.of(
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--window-size=1280," + altura,
            "--screenshot=" + foto,
            url));
    assertThat(foto).exists();
  }

  private static void executar(Path pasta, Path saida, List<String> argumentos)
      throws IOException, InterruptedException {
    // A machine with only a JDK and Maven skips these tests; CI installs chromium and runs them.
    assumeTrue(
        Files.isExecutable(CHROMIUM),
        "the page tests need Debian's chromium (apt-get install chromium)");
    Files.createDirectories(pasta);
    List<String> comando = new ArrayList<>();
    comando.addAll(
        List.of(
            CHROMIUM.toString(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--user-data-dir=" + pasta.resolve("perfil"),
            "--virtual-time-budget=10000"));
    comando.addAll(argumentos);
    Process chromium =
        new ProcessBuilder(comando)
            .redirectOutput(
                saida == null
                    ? ProcessBuilder.Redirect.DISCARD
                    : ProcessBuilder.Redirect.to(saida.toFile()))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(chromium.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
  }
}
