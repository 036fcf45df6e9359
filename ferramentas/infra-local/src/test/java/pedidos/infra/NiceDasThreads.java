package pedidos.infra;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints each thread of this JVM as {@code "<nice> <name>"}, read from {@code /proc}: the JVM's
 * options set the nice of its threads, and this is run with them in a child JVM by {@link
 * OpcoesDaJvmTest}.
 */
final class NiceDasThreads {

  private NiceDasThreads() {}

  public static void main(String[] args) throws IOException {
    try (DirectoryStream<Path> tarefas = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path tarefa : tarefas) {
        String stat = Files.readString(tarefa.resolve("stat"));
        String nome = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        // proc(5): after "(comm) " come the fields from the 3rd (state); nice is the 19th.
        String[] campos = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        System.out.println(campos[19 - 3] + " " + nome);
      }
    }
  }
}
