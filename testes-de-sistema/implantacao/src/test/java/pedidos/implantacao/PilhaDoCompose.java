package pedidos.implantacao;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ContainerNetwork;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.DockerComposeContainer;
import org.testcontainers.containers.ExecInContainerPattern;
import org.testcontainers.utility.LogUtils;
import pedidos.contrato.AutenticacaoDoKafka;
import pedidos.infra.Portas;

/**
 * The repository's docker-compose.yml, started as an operator starts it: {@code docker-compose up
 * -d --build} with every required variable set (fresh random passwords and keys per run), plus the
 * stand-ins' override (implantacao/docker-compose.substitutos.yml) for the two images no registry
 * can give here. Through Testcontainers' {@link DockerComposeContainer} with the local
 * docker-compose binary; it waits on the images' and the file's own healthchecks.
 */
final class PilhaDoCompose implements AutoCloseable {

  static final String COMPOSE = "docker-compose";

  /** The long-running services built from the root Dockerfile. */
  static final List<String> SERVICOS =
      List.of("receptor", "aplicador", "publicador-outbox", "publicador-outbox-reserva");

  static final List<String> RELAYS = List.of("publicador-outbox", "publicador-outbox-reserva");

  /** The images this stack builds; a rebuild leaves the previous one untagged, removed at close. */
  private static final List<String> IMAGENS =
      List.of(
          "pedidos/receptor:local",
          "pedidos/aplicador:local",
          "pedidos/publicador-outbox:local",
          "pedidos/simulador-loja:local",
          "pedidos-substituto/postgres:17",
          "pedidos-substituto/kafka:4.1.2");

  private static final Duration PARTIDA = Duration.ofMinutes(8);
  private static final String USUARIO_DE_OPS = "ops";
  private static final Pattern PAPEL = Pattern.compile("\"papel\"\\s*:\\s*\"([A-Z]+)\"");
  private static final SecureRandom ACASO = new SecureRandom();

  final Path raiz;
  final Path logs;
  final int portaDoReceptor = Portas.livre();
  final int portaDoPainel = Portas.livre();
  final int portaDaApi = Portas.livre();
  final String enderecoDoHost;
  final String tokenDaApi = segredo(16);
  final String segredoDoWebhook = segredo(32);
  final String senhaDeOps = segredo(16);
  final String senhaDoDono = segredo(16);
  final String senhaDoAdminDoKafka = segredo(16);
  final String senhaDaSeparacao = segredo(16);
  final Map<String, String> ambiente = new LinkedHashMap<>();
  private final List<File> arquivos;
  private final Compose compose;
  private final DockerClient docker = DockerClientFactory.instance().client();
  private final Map<String, String> imagensAntes = new HashMap<>();
  private String projeto;

  /**
   * @param enderecoDoHost this host's address the containers reach (docker0): the simulator's
   *     orders API listens there, and the aplicador reconciles against it
   */
  PilhaDoCompose(Path raiz, String enderecoDoHost) {
    this.raiz = raiz;
    this.enderecoDoHost = enderecoDoHost;
    this.logs = raiz.resolve("testes-de-sistema/implantacao/target/compose-logs");
    this.arquivos =
        List.of(
            raiz.resolve("docker-compose.yml").toFile(),
            raiz.resolve("testes-de-sistema/implantacao/docker-compose.substitutos.yml").toFile());
    ambiente.put("POSTGRES_PASSWORD", segredo(16));
    ambiente.put("PEDIDOS_DONO_PASSWORD", senhaDoDono);
    ambiente.put("PEDIDOS_RECEPTOR_PASSWORD", segredo(16));
    ambiente.put("PEDIDOS_APLICADOR_PASSWORD", segredo(16));
    ambiente.put("PEDIDOS_PUBLICADOR_PASSWORD", segredo(16));
    ambiente.put("LOJA_WEBHOOK_SECRET", segredoDoWebhook);
    ambiente.put("PEDIDOS_OPS_USUARIO", USUARIO_DE_OPS);
    ambiente.put("PEDIDOS_OPS_SENHA", senhaDeOps);
    ambiente.put("PEDIDOS_KAFKA_ASSINATURA", segredo(32));
    ambiente.put("PEDIDOS_KAFKA_BROKER_PASSWORD", segredo(16));
    ambiente.put("PEDIDOS_KAFKA_ADMIN_PASSWORD", senhaDoAdminDoKafka);
    ambiente.put("PEDIDOS_KAFKA_PUBLICADOR_PASSWORD", segredo(16));
    ambiente.put("PEDIDOS_KAFKA_APLICADOR_PASSWORD", segredo(16));
    ambiente.put("PEDIDOS_KAFKA_SEPARACAO_PASSWORD", senhaDaSeparacao);
    ambiente.put("RECEPTOR_PORT", String.valueOf(portaDoReceptor));
    ambiente.put("APLICADOR_PORT", String.valueOf(portaDoPainel));
    ambiente.put("LOJA_API_URL", "http://" + enderecoDoHost + ":" + portaDaApi);
    ambiente.put("LOJA_API_TOKEN", tokenDaApi);
    ambiente.put("LOJA_RECONCILIACAO_INTERVALO", "5s");
    compose =
        new Compose(arquivos)
            .withLocalCompose(true)
            // Every image is built here; there is no registry to pull from.
            .withPull(false)
            .withBuild(true)
            .withEnv(ambiente)
            .withStartupTimeout(PARTIDA);
    for (String servico : List.of("postgres", "kafka")) {
      compose.waitingFor(servico, new SaudavelPeloDocker().withStartupTimeout(PARTIDA));
    }
    for (String servico : SERVICOS) {
      compose.waitingFor(servico, new SaudavelPeloDocker().withStartupTimeout(PARTIDA));
    }
  }

  /** Builds the images, starts everything and returns once every healthcheck passes. */
  PilhaDoCompose iniciar() {
    for (String imagem : IMAGENS) {
      idDaImagem(imagem).ifPresent(id -> imagensAntes.put(imagem, id));
    }
    compose.start();
    projeto =
        compose
            .getContainerByServiceName("postgres")
            .orElseThrow()
            .getContainerInfo()
            .getConfig()
            .getLabels()
            .get("com.docker.compose.project");
    registrarNomes();
    return this;
  }

  URI urlDoReceptor() {
    return URI.create("http://127.0.0.1:" + portaDoReceptor);
  }

  URI urlDoPainel() {
    return URI.create("http://127.0.0.1:" + portaDoPainel);
  }

  String jdbcUrl() {
    return "jdbc:postgresql://postgres:5432/pedidos";
  }

  /** The broker as the containers name it: {@link NomesDoCompose} resolves it here too. */
  String bootstrapDoKafka() {
    return "kafka:9092";
  }

  String usuarioDeOps() {
    return USUARIO_DE_OPS;
  }

  /** A Kafka client's SASL/SCRAM settings as one of kafka-init's users. */
  static Map<String, Object> clienteDoKafka(String usuario, String senha) {
    return AutenticacaoDoKafka.doCliente(usuario, senha);
  }

  Map<String, Object> administradorDoKafka() {
    return clienteDoKafka("pedidos-admin", senhaDoAdminDoKafka);
  }

  /** The service's one container, as the engine sees it now. */
  InspectContainerResponse container(String servico) {
    List<Container> achados =
        docker
            .listContainersCmd()
            .withShowAll(true)
            .withLabelFilter(
                Map.of(
                    "com.docker.compose.project", projeto, "com.docker.compose.service", servico))
            .exec();
    if (achados.size() != 1) {
      throw new IllegalStateException(servico + ": " + achados.size() + " containers");
    }
    return docker.inspectContainerCmd(achados.get(0).getId()).exec();
  }

  boolean saudavel(String servico) {
    InspectContainerResponse.ContainerState estado = container(servico).getState();
    return Boolean.TRUE.equals(estado.getRunning())
        && estado.getHealth() != null
        && "healthy".equals(estado.getHealth().getStatus());
  }

  /**
   * Kills the service's JVM with SIGKILL, from the host, as a crash (the OOM killer, a segfault)
   * would: the engine sees the container's main process die on its own, not a {@code docker
   * kill}/{@code stop}, which would count as stopped by hand and keep the restart policy from
   * acting. Inside the container the JVM is PID 1, which no signal from within can kill.
   */
  void matarJvm(String servico) {
    InspectContainerResponse container = container(servico);
    long pid = container.getState().getPidLong();
    ProcessHandle processo =
        ProcessHandle.of(pid)
            .orElseThrow(() -> new IllegalStateException(servico + ": no process " + pid));
    String comando = processo.info().command().orElse("?");
    if (!comando.endsWith("/java")) {
      throw new IllegalStateException(servico + ": PID " + pid + " is " + comando + ", not java");
    }
    if (!processo.destroyForcibly()) {
      throw new IllegalStateException(servico + ": could not kill PID " + pid + " (not root?)");
    }
  }

  /** What the relay's health says about it ({@code ATIVO}, {@code RESERVA}...), for operators. */
  Optional<String> papelDoRelay(String servico) {
    ExecResult resultado =
        executar(
            servico,
            "curl",
            "-sS",
            "--max-time",
            "5",
            "-u",
            USUARIO_DE_OPS + ":" + senhaDeOps,
            "http://127.0.0.1:9000/actuator/health");
    Matcher papel = PAPEL.matcher(resultado.getStdout());
    return papel.find() ? Optional.of(papel.group(1)) : Optional.empty();
  }

  ExecResult executar(String servico, String... comando) {
    try {
      return ExecInContainerPattern.execInContainer(docker, container(servico), comando);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code docker-compose up -d --force-recreate --no-deps <services>}, as an operator would after
   * changing an image or its settings: new containers, the same named volumes. Then this JVM's
   * names follow the new containers' addresses.
   */
  void recriar(String... servicos) {
    List<String> argumentos = new ArrayList<>(List.of("up", "-d", "--force-recreate", "--no-deps"));
    argumentos.addAll(List.of(servicos));
    Saida recriacao = compose("recriar", argumentos);
    if (recriacao.codigo() != 0) {
      throw new IllegalStateException(recriacao.toString());
    }
    registrarNomes();
  }

  /**
   * The simulator's image, behind the "simulador" profile, built by compose from the root
   * Dockerfile and run as the compose file runs it (its entrypoint there: {@code java -jar} and the
   * simulator's flags) with one flag more, which it refuses: what it prints (its usage) shows its
   * jar starts in that image. No dependency is started.
   */
  Saida simuladorDaImagem() {
    Saida construcao =
        compose("simulador", List.of("--profile", "simulador", "build", "simulador"));
    if (construcao.codigo() != 0) {
      throw new IllegalStateException(construcao.toString());
    }
    return compose(
        "simulador",
        List.of(
            "--profile", "simulador", "run", "--rm", "-T", "--no-deps", "simulador", "--sem-tal"));
  }

  /** What a docker-compose command printed (stdout and stderr) and its exit code. */
  record Saida(String comando, int codigo, String texto) {
    @Override
    public String toString() {
      return comando + " exited " + codigo + ":\n" + texto;
    }
  }

  /**
   * {@code docker-compose <argumentos>} on this stack (its project, files and variables), as the
   * operator's shell would run it; its output also in target/compose-logs/{log}.log.
   */
  private Saida compose(String log, List<String> argumentos) {
    List<String> comando = new ArrayList<>(List.of(COMPOSE));
    comando.addAll(argumentos);
    Path arquivo = logs.resolve(log + ".log");
    ProcessBuilder processo =
        new ProcessBuilder(comando)
            .directory(raiz.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(arquivo.toFile()));
    processo.environment().putAll(ambiente);
    processo.environment().put("COMPOSE_PROJECT_NAME", projeto);
    // The engine Testcontainers found, as its own docker-compose calls are told.
    processo
        .environment()
        .put(
            "DOCKER_HOST",
            DockerClientFactory.instance().getTransportConfig().getDockerHost().toString());
    processo
        .environment()
        .put(
            "COMPOSE_FILE",
            arquivos.stream().map(File::getAbsolutePath).collect(Collectors.joining(":")));
    try {
      Files.createDirectories(logs);
      long antes = Files.exists(arquivo) ? Files.size(arquivo) : 0;
      Process executando = processo.start();
      try {
        if (!executando.waitFor(5, TimeUnit.MINUTES)) {
          throw new IllegalStateException(String.join(" ", comando) + " did not end in 5 minutes");
        }
      } finally {
        // Its containers are the project's: down -v removes them at close.
        executando.destroyForcibly();
      }
      byte[] tudo = Files.readAllBytes(arquivo);
      String texto =
          new String(tudo, (int) antes, tudo.length - (int) antes, StandardCharsets.UTF_8);
      return new Saida(String.join(" ", comando), executando.exitValue(), texto);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Every container's log so far, under target/compose-logs/{fase}/. */
  void guardarLogs(String fase) {
    if (projeto == null) {
      return;
    }
    Path pasta = logs.resolve(fase);
    try {
      Files.createDirectories(pasta);
      for (Container container :
          docker
              .listContainersCmd()
              .withShowAll(true)
              .withLabelFilter(Map.of("com.docker.compose.project", projeto))
              .exec()) {
        String servico = container.getLabels().get("com.docker.compose.service");
        Files.writeString(
            pasta.resolve(servico + ".log"),
            LogUtils.getOutput(docker, container.getId()),
            StandardCharsets.UTF_8);
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("could not keep the containers' logs: " + e);
    }
  }

  /**
   * {@code docker-compose down -v}; then the volumes it leaves and the images this run's builds
   * left untagged. A recreated container gets its predecessor's anonymous volumes (the Kafka
   * image's /etc/kafka/secrets and /mnt/shared/config) by name, and {@code down -v} then keeps
   * them.
   */
  @Override
  public void close() {
    guardarLogs("fim");
    Set<String> volumes = volumesDoProjeto();
    try {
      compose.stop();
    } finally {
      for (String volume : volumes) {
        try {
          docker.removeVolumeCmd(volume).exec();
        } catch (NotFoundException e) {
          // Removed by down -v.
        } catch (RuntimeException e) {
          System.err.println("could not remove volume " + volume + ": " + e.getMessage());
        }
      }
      imagensAntes.forEach(
          (imagem, antes) -> {
            if (!idDaImagem(imagem).orElse("").equals(antes)) {
              try {
                docker.removeImageCmd(antes).exec();
              } catch (RuntimeException e) {
                // Still used by a container or by another tag: not ours to remove.
              }
            }
          });
    }
  }

  private Set<String> volumesDoProjeto() {
    Set<String> volumes = new HashSet<>();
    if (projeto == null) {
      return volumes;
    }
    try {
      for (Container container :
          docker
              .listContainersCmd()
              .withShowAll(true)
              .withLabelFilter(Map.of("com.docker.compose.project", projeto))
              .exec()) {
        for (InspectContainerResponse.Mount ponto :
            docker.inspectContainerCmd(container.getId()).exec().getMounts()) {
          if (ponto.getName() != null && !ponto.getName().isEmpty()) {
            volumes.add(ponto.getName());
          }
        }
      }
    } catch (RuntimeException e) {
      System.err.println("could not list the stack's volumes: " + e.getMessage());
    }
    return volumes;
  }

  private void registrarNomes() {
    Map<String, String> enderecos = new HashMap<>();
    for (Container container :
        docker
            .listContainersCmd()
            .withLabelFilter(Map.of("com.docker.compose.project", projeto))
            .exec()) {
      ContainerNetwork rede =
          container.getNetworkSettings().getNetworks().get(projeto + "_default");
      if (rede != null && rede.getIpAddress() != null && !rede.getIpAddress().isEmpty()) {
        enderecos.put(container.getLabels().get("com.docker.compose.service"), rede.getIpAddress());
      }
    }
    NomesDoCompose.registrar(enderecos);
  }

  private Optional<String> idDaImagem(String imagem) {
    try {
      return Optional.of(docker.inspectImageCmd(imagem).exec().getId());
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  private static String segredo(int bytes) {
    byte[] aleatorios = new byte[bytes];
    ACASO.nextBytes(aleatorios);
    return HexFormat.of().formatHex(aleatorios);
  }

  /** Testcontainers' compose environment; "implantacao" prefixes the random project name. */
  private static final class Compose extends DockerComposeContainer<Compose> {
    Compose(List<File> arquivos) {
      super("implantacao", arquivos);
    }
  }
}
