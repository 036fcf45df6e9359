package pedidos.bancada;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import pedidos.infra.ServicoEmProcesso;

/**
 * A main class of this module run as a process of its own (the broker, the load generator), its
 * output in a file: from the module's Spring Boot jar through its {@code PropertiesLauncher}, or
 * from the classpath when the driver was not started from that jar.
 */
final class ProcessoJava implements AutoCloseable {

  private final String nome;
  private final Process processo;
  private final Path saida;

  private ProcessoJava(String nome, Process processo, Path saida) {
    this.nome = nome;
    this.processo = processo;
    this.saida = saida;
  }

  static ProcessoJava iniciar(
      String nome,
      Class<?> principal,
      List<String> opcoesDaJvm,
      List<String> argumentos,
      Path saida)
      throws IOException {
    String classpath = System.getProperty("java.class.path");
    List<String> comando = new ArrayList<>();
    comando.add(ServicoEmProcesso.javaDestaJvm());
    comando.addAll(opcoesDaJvm);
    if (!classpath.contains(File.pathSeparator) && classpath.endsWith(".jar")) {
      comando.add("-Dloader.main=" + principal.getName());
      comando.add("-cp");
      comando.add(classpath);
      comando.add("org.springframework.boot.loader.launch.PropertiesLauncher");
    } else {
      comando.add("-cp");
      comando.add(classpath);
      comando.add(principal.getName());
    }
    comando.addAll(argumentos);
    Process processo =
        new ProcessBuilder(comando)
            .redirectErrorStream(true)
            .redirectOutput(saida.toFile())
            .start();
    return new ProcessoJava(nome, processo, saida);
  }

  long pid() {
    return processo.pid();
  }

  /** The first line of its output starting with the prefix, once it is there. */
  String aguardarLinha(String prefixo, Duration limite) throws IOException, InterruptedException {
    long prazo = System.nanoTime() + limite.toNanos();
    while (System.nanoTime() < prazo) {
      Optional<String> linha =
          Files.readAllLines(saida, StandardCharsets.UTF_8).stream()
              .filter(l -> l.startsWith(prefixo))
              .findFirst();
      if (linha.isPresent()) {
        return linha.get();
      }
      if (!processo.isAlive()) {
        throw new IllegalStateException(
            nome
                + " exited with "
                + processo.exitValue()
                + " before '"
                + prefixo
                + "'; see "
                + saida);
      }
      TimeUnit.MILLISECONDS.sleep(100); // polling another process's output file
    }
    throw new IllegalStateException(
        nome + ": no '" + prefixo + "' within " + limite + "; see " + saida);
  }

  int aguardarFim(Duration limite) throws InterruptedException {
    if (!processo.waitFor(limite.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(nome + " still running after " + limite + "; see " + saida);
    }
    return processo.exitValue();
  }

  /** SIGTERM, then SIGKILL if it has not exited within 30 s. */
  @Override
  public void close() {
    if (processo.isAlive()) {
      processo.destroy();
      try {
        if (!processo.waitFor(30, TimeUnit.SECONDS)) {
          processo.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        processo.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
