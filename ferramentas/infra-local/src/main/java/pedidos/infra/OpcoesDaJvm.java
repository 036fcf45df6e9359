package pedidos.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The services' JVM options, from the one file that holds them: {@code produto/opcoes-da-jvm}, a
 * java argument file ({@code java @file}: one option a line, {@code #} comments) that the image
 * runs with too (Dockerfile). Why each option is there is said in that file, and measured in
 * docs/ARRANQUE.md. The heap is not in it: it depends on where the service runs (here a fixed
 * {@code -Xmx}, in the image a share of the container's memory).
 *
 * <p>{@code PEDIDOS_OPCOES_DA_JVM} (space-separated) replaces the file's options for a run, to
 * compare settings without editing it.
 */
public final class OpcoesDaJvm {

  static final String ARQUIVO = "produto/opcoes-da-jvm";
  static final String VARIAVEL = "PEDIDOS_OPCOES_DA_JVM";

  private OpcoesDaJvm() {}

  /** The options a service process starts with here: the heap, then the file (or the variable). */
  public static List<String> dosServicos() {
    List<String> opcoes = new ArrayList<>(List.of("-Xmx512m"));
    String variavel = System.getenv(VARIAVEL);
    if (variavel != null && !variavel.isBlank()) {
      opcoes.addAll(List.of(variavel.trim().split("\\s+")));
      return opcoes;
    }
    arquivo(Path.of("").toAbsolutePath()).ifPresent(a -> opcoes.add("@" + a));
    return opcoes;
  }

  /**
   * The file, looked for from the working directory upwards: the launcher runs from the repository
   * root, a module's tests from the module's folder.
   */
  static java.util.Optional<Path> arquivo(Path diretorio) {
    for (Path d = diretorio; d != null; d = d.getParent()) {
      Path candidato = d.resolve(ARQUIVO);
      if (Files.isRegularFile(candidato)) {
        return java.util.Optional.of(candidato);
      }
    }
    return java.util.Optional.empty();
  }
}
