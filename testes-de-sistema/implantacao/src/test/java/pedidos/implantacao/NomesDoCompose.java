package pedidos.implantacao;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * The compose services' names, resolved in this JVM as the containers resolve them. The broker
 * advertises itself as {@code kafka:9092}, so a client on the host (the simulator's picking
 * consumer, the test's admin client) must resolve {@code kafka}; nothing in the deployment is
 * changed for the test, and no port of PostgreSQL or Kafka is published: the host reaches the
 * containers' addresses on their bridge network directly.
 *
 * <p>The JVM reads names from the file in {@code jdk.net.hosts.file} (set by surefire), anew at
 * every lookup; {@code sun.net.inetaddr.ttl=0} keeps it from caching an address a recreated
 * container no longer has.
 */
final class NomesDoCompose {

  private static final String PROPRIEDADE = "jdk.net.hosts.file";
  private static final Map<String, String> NOMES = new TreeMap<>();

  private NomesDoCompose() {}

  /** The loopback names only; before any name is looked up. */
  static synchronized void iniciar() {
    NOMES.clear();
    gravar();
  }

  /** Service name to its address on the compose network, replacing what was there. */
  static synchronized void registrar(Map<String, String> enderecos) {
    NOMES.putAll(enderecos);
    gravar();
  }

  private static void gravar() {
    String arquivo = System.getProperty(PROPRIEDADE);
    if (arquivo == null) {
      throw new IllegalStateException(
          PROPRIEDADE + " is not set: run this test through Maven (surefire sets it)");
    }
    StringBuilder linhas = new StringBuilder("127.0.0.1 localhost ").append(maquina()).append('\n');
    linhas.append("::1 localhost ip6-localhost\n");
    NOMES.forEach((nome, ip) -> linhas.append(ip).append(' ').append(nome).append('\n'));
    try {
      Path caminho = Path.of(arquivo);
      Files.createDirectories(caminho.toAbsolutePath().getParent());
      Path temporario = caminho.resolveSibling(caminho.getFileName() + ".novo");
      Files.writeString(temporario, linhas, StandardCharsets.UTF_8);
      Files.move(temporario, caminho, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** This machine's own name, which the JVM resolves too (InetAddress.getLocalHost). */
  private static String maquina() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
