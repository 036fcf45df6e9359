package pedidos.bancada;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time from {@code /proc}: user + system ticks of a process (all its threads), of a PostgreSQL
 * cluster (the postmaster, its live backends and the children it already reaped), and of the whole
 * machine (busy and hypervisor steal), at one instant.
 */
final class CpuDosProcessos {

  /** One reading: ticks per process name, the machine's counters, the load average. */
  record Amostra(
      long instanteNanos,
      Map<String, Long> ticks,
      long ocupada,
      long roubo,
      long total,
      String cargaMedia) {}

  private final Map<String, Long> pids = new LinkedHashMap<>();
  private final Path postmasterPid;
  final long hz = ticksPorSegundo();

  CpuDosProcessos(Path dadosDoPostgres) {
    this.postmasterPid = dadosDoPostgres.resolve("postmaster.pid");
  }

  void acompanhar(String nome, long pid) {
    pids.put(nome, pid);
  }

  Amostra ler() throws IOException {
    long instante = System.nanoTime();
    Map<String, Long> ticks = new LinkedHashMap<>();
    for (var par : pids.entrySet()) {
      ticks.put(par.getKey(), ticksDe(par.getValue(), false));
    }
    ticks.put("postgres", ticksDoPostgres());
    String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
    long user = Long.parseLong(cpu[1]);
    long nice = Long.parseLong(cpu[2]);
    long system = Long.parseLong(cpu[3]);
    long idle = Long.parseLong(cpu[4]);
    long iowait = Long.parseLong(cpu[5]);
    long irq = Long.parseLong(cpu[6]);
    long softirq = Long.parseLong(cpu[7]);
    long steal = Long.parseLong(cpu[8]);
    long ocupada = user + nice + system + irq + softirq + steal;
    String carga = Files.readString(Path.of("/proc/loadavg")).trim();
    return new Amostra(
        instante,
        ticks,
        ocupada,
        steal,
        ocupada + idle + iowait,
        carga.substring(0, nthEspaco(carga, 3)));
  }

  private long ticksDoPostgres() throws IOException {
    long postmaster = Long.parseLong(Files.readAllLines(postmasterPid).get(0).trim());
    long total = ticksDe(postmaster, true);
    Path filhos =
        Path.of(
            "/proc", String.valueOf(postmaster), "task", String.valueOf(postmaster), "children");
    for (String filho : Files.readString(filhos).trim().split("\\s+")) {
      if (!filho.isEmpty()) {
        total += ticksDe(Long.parseLong(filho), false);
      }
    }
    return total;
  }

  /** utime + stime (fields 14 and 15), with cutime + cstime (16, 17) for reaped children. */
  static long ticksDe(long pid, boolean comFilhosColhidos) throws IOException {
    Path processo = Path.of("/proc", String.valueOf(pid));
    String linha;
    try {
      linha = Files.readString(processo.resolve("stat"));
    } catch (NoSuchFileException e) {
      return 0; // a backend that just exited: its time is in the postmaster's cutime now
    } catch (IOException e) {
      // Opened, then gone before the read (ESRCH): the same backend, a moment later.
      if (Files.exists(processo)) {
        throw e;
      }
      return 0;
    }
    String[] campos = linha.substring(linha.lastIndexOf(')') + 2).trim().split("\\s+");
    long ticks = Long.parseLong(campos[11]) + Long.parseLong(campos[12]);
    if (comFilhosColhidos) {
      ticks += Long.parseLong(campos[13]) + Long.parseLong(campos[14]);
    }
    return ticks;
  }

  private static int nthEspaco(String texto, int n) {
    int i = -1;
    for (int k = 0; k < n; k++) {
      i = texto.indexOf(' ', i + 1);
      if (i < 0) {
        return texto.length();
      }
    }
    return i;
  }

  private static long ticksPorSegundo() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").start();
      String saida = new String(getconf.getInputStream().readAllBytes()).trim();
      getconf.waitFor();
      return Long.parseLong(saida);
    } catch (IOException | NumberFormatException e) {
      return 100; // Linux's USER_HZ on every architecture this runs on
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
