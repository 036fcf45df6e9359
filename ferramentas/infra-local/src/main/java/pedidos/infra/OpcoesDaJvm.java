package pedidos.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The services' JVM options, from the files that hold them: {@code opcoes-comuns-da-jvm} at the
 * repository root, shared by every service, then the service's own {@code <module>/opcoes-da-jvm}
 * (the JIT differs between them); java argument files ({@code java @file}: one option a line,
 * {@code #} comments) that the image runs with too (Dockerfile). Why each option is there is said
 * in those files, and measured in docs/ARRANQUE.md. The heap is not in them: it depends on where
 * the service runs (here a fixed {@code -Xmx}, in the image a share of the container's memory).
 *
 * <p>{@code PEDIDOS_OPCOES_DA_JVM} (space-separated) replaces both files' options for a run, to
 * compare settings without editing them.
 */
public final class OpcoesDaJvm {

  static final String NOME = "opcoes-da-jvm";
  static final String ARQUIVO = "opcoes-comuns-da-jvm";
  static final String VARIAVEL = "PEDIDOS_OPCOES_DA_JVM";

  private OpcoesDaJvm() {}

  /**
   * The options a process of a service not named here starts with: the heap, then the shared file
   * (or the variable).
   */
  public static List<String> dosServicos() {
    return doModulo(null);
  }

  /**
   * The options a service's process starts with: the heap, the shared file, then the file of its
   * module when there is one (or the variable instead of both files).
   */
  public static List<String> doModulo(String modulo) {
    return doModulo(Path.of("").toAbsolutePath(), modulo);
  }

  /** As {@link #doModulo(String)}, with the files looked for from {@code diretorio} upwards. */
  static List<String> doModulo(Path diretorio, String modulo) {
    List<String> opcoes = new ArrayList<>(List.of("-Xmx512m"));
    String variavel = System.getenv(VARIAVEL);
    if (variavel != null && !variavel.isBlank()) {
      opcoes.addAll(List.of(variavel.trim().split("\\s+")));
      return opcoes;
    }
    java.util.Optional<Path> comum = arquivo(diretorio);
    if (comum.isEmpty()) {
      return opcoes;
    }
    opcoes.add("@" + comum.get());
    if (modulo != null) {
      // opcoes-comuns-da-jvm -> <module>/opcoes-da-jvm
      Path doModulo = comum.get().resolveSibling(modulo).resolve(NOME);
      if (Files.isRegularFile(doModulo)) {
        opcoes.add("@" + doModulo);
      }
    }
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
