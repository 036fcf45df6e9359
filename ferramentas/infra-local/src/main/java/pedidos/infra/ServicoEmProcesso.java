package pedidos.infra;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A service jar running as its own process, as in production: started with {@code java -jar},
 * configured by environment variables, its output prefixed with its name and kept in a log file,
 * stopped with SIGTERM or killed with SIGKILL. The end-to-end tests kill and restart services with
 * it; the local launcher runs the whole system with it.
 */
public final class ServicoEmProcesso implements AutoCloseable {

  private final String nome;
  private final List<String> comando;
  private final Map<String, String> ambiente;
  private final int portaDeGestao;
  private final Path arquivoDeLog;
  private final PrintStream saida;
  private Process processo;

  private ServicoEmProcesso(Builder builder) {
    this.nome = builder.nome;
    this.ambiente = Map.copyOf(builder.ambiente);
    this.portaDeGestao = builder.portaDeGestao;
    this.arquivoDeLog = builder.arquivoDeLog;
    this.saida = builder.saida;
    List<String> comando = new ArrayList<>();
    comando.add(builder.java != null ? builder.java : javaDestaJvm());
    comando.addAll(builder.opcoesDaJvm);
    comando.add("-jar");
    comando.add(builder.jar.toAbsolutePath().toString());
    comando.addAll(builder.argumentos);
    this.comando = List.copyOf(comando);
  }

  public static Builder builder(String nome, Path jar) {
    return new Builder(nome, jar);
  }

  public String nome() {
    return nome;
  }

  /** Its command line up to the jar: the java binary and the JVM options (for reports). */
  public String comando() {
    return String.join(" ", comando.subList(0, comando.indexOf("-jar") + 2));
  }

  public synchronized ServicoEmProcesso iniciar() {
    if (vivo()) {
      throw new IllegalStateException(nome + " is already running");
    }
    if (!Files.isRegularFile(Path.of(comando.get(comando.indexOf("-jar") + 1)))) {
      throw new IllegalStateException(
          nome
              + ": "
              + comando.get(comando.indexOf("-jar") + 1)
              + " does not exist; build it first");
    }
    var construtor = new ProcessBuilder(comando).redirectErrorStream(true);
    construtor.environment().putAll(ambiente);
    try {
      processo = construtor.start();
    } catch (IOException e) {
      throw new IllegalStateException("could not start " + nome, e);
    }
    Process iniciado = processo;
    Thread copia = new Thread(() -> copiarSaida(iniciado), nome + "-saida");
    copia.setDaemon(true);
    copia.start();
    return this;
  }

  /** Waits until {@code /actuator/health} on the management port answers UP. */
  public ServicoEmProcesso aguardarSaude(Duration limite) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    URI saude = URI.create("http://127.0.0.1:" + portaDeGestao + "/actuator/health");
    Instant prazo = Instant.now().plus(limite);
    while (Instant.now().isBefore(prazo)) {
      if (!vivo()) {
        throw new IllegalStateException(
            nome
                + " exited with status "
                + processo.exitValue()
                + " before it was healthy; see "
                + arquivoDeLog);
      }
      try {
        HttpResponse<String> resposta =
            http.send(
                HttpRequest.newBuilder(saude).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (resposta.statusCode() == 200 && resposta.body().contains("\"UP\"")) {
          return this;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + nome, e);
      }
      esperarUmPouco();
    }
    throw new IllegalStateException(
        nome + " was not healthy within " + limite + "; see " + arquivoDeLog);
  }

  public synchronized boolean vivo() {
    return processo != null && processo.isAlive();
  }

  /** SIGTERM: the service shuts down in order (Spring's lifecycle), as a deploy would stop it. */
  public synchronized void parar() {
    if (vivo()) {
      processo.destroy();
      aguardarFim(Duration.ofSeconds(30));
      if (vivo()) {
        matar();
      }
    }
  }

  /** SIGKILL: the service dies mid-stream, as in a crash. */
  public synchronized void matar() {
    if (vivo()) {
      processo.destroyForcibly();
      aguardarFim(Duration.ofSeconds(30));
    }
  }

  public int portaDeGestao() {
    return portaDeGestao;
  }

  public long pid() {
    return processo.pid();
  }

  @Override
  public void close() {
    parar();
  }

  private void aguardarFim(Duration limite) {
    try {
      processo.waitFor(limite.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void copiarSaida(Process processo) {
    try (var linhas =
            new BufferedReader(
                new InputStreamReader(processo.getInputStream(), StandardCharsets.UTF_8));
        var log =
            arquivoDeLog == null
                ? null
                : Files.newBufferedWriter(
                    arquivoDeLog,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND)) {
      String prefixo = "[" + nome + "] ";
      for (String linha = linhas.readLine(); linha != null; linha = linhas.readLine()) {
        if (saida != null) {
          saida.println(prefixo + linha);
        }
        if (log != null) {
          log.write(linha);
          log.newLine();
          log.flush();
        }
      }
    } catch (IOException e) {
      // the process is gone; nothing more to copy
    }
  }

  private static void esperarUmPouco() {
    try {
      TimeUnit.MILLISECONDS.sleep(200); // polling a process that is starting, not a test wait
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The {@code java} running this JVM: what a service runs with unless told otherwise. */
  public static String javaDestaJvm() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  public static final class Builder {
    private final String nome;
    private final Path jar;
    private final Map<String, String> ambiente = new LinkedHashMap<>();
    private final List<String> argumentos = new ArrayList<>();
    private final List<String> opcoesDaJvm = new ArrayList<>(OpcoesDaJvm.dosServicos());
    private int portaDeGestao;
    private Path arquivoDeLog;
    private PrintStream saida = System.out;
    private String java;

    private Builder(String nome, Path jar) {
      this.nome = nome;
      this.jar = jar;
    }

    public Builder ambiente(String variavel, String valor) {
      ambiente.put(variavel, valor);
      return this;
    }

    public Builder argumento(String argumento) {
      argumentos.add(argumento);
      return this;
    }

    /** The {@code java} to run the jar with; the one running this JVM by default. */
    public Builder java(String java) {
      this.java = java;
      return this;
    }

    public Builder opcoesDaJvm(List<String> opcoes) {
      opcoesDaJvm.clear();
      opcoesDaJvm.addAll(opcoes);
      return this;
    }

    /** The actuator's port, where health is asked; also set as {@code MANAGEMENT_SERVER_PORT}. */
    public Builder portaDeGestao(int porta) {
      this.portaDeGestao = porta;
      return ambiente("MANAGEMENT_SERVER_PORT", String.valueOf(porta));
    }

    public Builder arquivoDeLog(Path arquivo) {
      this.arquivoDeLog = arquivo;
      return this;
    }

    /** Where the prefixed output goes; {@code null} for the log file only. */
    public Builder saida(PrintStream saida) {
      this.saida = saida;
      return this;
    }

    public ServicoEmProcesso construir() {
      return new ServicoEmProcesso(this);
    }
  }
}
