package pedidos.receptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JIT's C2 threads found by name and put at nice 19, and nothing else touched. */
class CompiladorEmSegundoPlanoTest {

  @Test
  void achaSoAsThreadsDoC2(@TempDir Path tarefas) throws IOException {
    tarefa(tarefas, "101", "C2 CompilerThre");
    tarefa(tarefas, "102", "C1 CompilerThre");
    tarefa(tarefas, "103", "http-nio-8080-e");
    tarefa(tarefas, "104", "C2 CompilerThre");

    assertThat(CompiladorEmSegundoPlano.threadsDoC2(tarefas))
        .containsExactlyInAnyOrder("101", "104");
  }

  @Test
  void baixaAsThreadsDoC2DestaJvmParaNice19() throws IOException {
    Path tarefas = Path.of("/proc/self/task");
    assumeThat(Files.isDirectory(tarefas)).as("Linux").isTrue();
    List<String> c2 = CompiladorEmSegundoPlano.threadsDoC2(tarefas);
    assumeThat(c2).as("this JVM runs C2").isNotEmpty();
    String outra = Long.toString(ProcessHandle.current().pid()); // the main thread's id

    assertThat(CompiladorEmSegundoPlano.baixar()).isEqualTo(c2.size());

    for (String thread : c2) {
      assertThat(nice(tarefas.resolve(thread))).as("C2 thread " + thread).isEqualTo(19);
    }
    assertThat(nice(tarefas.resolve(outra))).as("the main thread keeps its priority").isZero();
  }

  private static void tarefa(Path tarefas, String id, String nome) throws IOException {
    Files.createDirectories(tarefas.resolve(id));
    Files.writeString(tarefas.resolve(id).resolve("comm"), nome + "\n");
  }

  /** Field 19 of /proc/<pid>/task/<tid>/stat, counted after the name in parentheses. */
  private static int nice(Path tarefa) throws IOException {
    String stat = Files.readString(tarefa.resolve("stat"));
    String[] campos = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(campos[16]);
  }
}
