package pedidos.implantacao;

import static org.junit.jupiter.api.Assertions.fail;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.CommandLine;

/**
 * What the deployment test needs from the machine: a Docker engine, the docker-compose binary, the
 * Debian base image the Dockerfiles start from, and the engine's default bridge (docker0), whose
 * host address the containers reach the simulator's orders API at. Without one of them the test is
 * skipped, saying why (as a JUnit condition, so the report shows the reason), except under {@code
 * CI=true}, where it fails: CI must run it ({@code implantacao/preparar-docker.sh} provides all
 * four).
 */
final class MotorDocker implements ExecutionCondition {

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext contexto) {
    if (contexto.getTestMethod().isPresent()) {
      return ConditionEvaluationResult.enabled("decided for the class");
    }
    // The Docker client may look a name up: the JVM's names file must exist first.
    NomesDoCompose.iniciar();
    if (soEmCi()) {
      return ConditionEvaluationResult.enabled("CI=true: the deployment test must run");
    }
    String falta = falta();
    if (falta == null) {
      return ConditionEvaluationResult.enabled("Docker is ready");
    }
    String motivo = "deployment test skipped: " + falta + COMO_PREPARAR;
    System.out.println(motivo);
    return ConditionEvaluationResult.disabled(motivo);
  }

  static final String IMAGEM_BASE = "debian:trixie-slim";
  private static final String COMO_PREPARAR =
      " (as root, testes-de-sistema/implantacao/preparar-docker.sh installs and starts it; docs/implantacao.md, \"Deploying\")";

  /** The host's address on docker0; fails the test when something is missing (under CI). */
  static String exigir() {
    String falta = falta();
    if (falta != null) {
      fail("the deployment test cannot run: " + falta + COMO_PREPARAR);
    }
    return enderecoDoDocker0().orElseThrow();
  }

  private static boolean soEmCi() {
    return "true".equals(System.getenv("CI"));
  }

  private static String falta() {
    if (!DockerClientFactory.instance().isDockerAvailable()) {
      return "no Docker engine answers (DOCKER_HOST or /var/run/docker.sock)";
    }
    if (!CommandLine.executableExists(PilhaDoCompose.COMPOSE)) {
      return "no " + PilhaDoCompose.COMPOSE + " on the PATH (Debian's docker-compose 1.29)";
    }
    if (!imagemBaseDisponivel()) {
      return "no "
          + IMAGEM_BASE
          + " image in the engine, and none can be pulled (it is made locally with debootstrap)";
    }
    if (enderecoDoDocker0().isEmpty()) {
      return "no docker0 bridge with an IPv4 address on this host (the engine runs elsewhere?)";
    }
    return null;
  }

  private static boolean imagemBaseDisponivel() {
    DockerClient docker = DockerClientFactory.instance().client();
    try {
      docker.inspectImageCmd(IMAGEM_BASE).exec();
      return true;
    } catch (NotFoundException ausente) {
      try {
        docker.pullImageCmd(IMAGEM_BASE).start().awaitCompletion(5, TimeUnit.MINUTES);
        docker.inspectImageCmd(IMAGEM_BASE).exec();
        return true;
      } catch (RuntimeException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  static Optional<String> enderecoDoDocker0() {
    try {
      NetworkInterface ponte = NetworkInterface.getByName("docker0");
      if (ponte == null) {
        return Optional.empty();
      }
      return ponte
          .inetAddresses()
          .filter(Inet4Address.class::isInstance)
          .map(InetAddress::getHostAddress)
          .findFirst();
    } catch (SocketException e) {
      return Optional.empty();
    }
  }
}
