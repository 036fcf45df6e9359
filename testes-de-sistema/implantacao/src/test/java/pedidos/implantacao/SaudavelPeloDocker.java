package pedidos.implantacao;

import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.command.InspectContainerResponse;
import java.time.Duration;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;

/**
 * Waits until the engine reports the container healthy by its own healthcheck, asking every two
 * seconds. Testcontainers' {@code Wait.forHealthcheck()} (1.21) asks the engine in a loop without
 * pause: on a 2-core host that kept dockerd and the test busy while the services were starting.
 */
final class SaudavelPeloDocker extends AbstractWaitStrategy {

  @Override
  protected void waitUntilReady() {
    await()
        .atMost(startupTimeout)
        .pollInterval(Duration.ofSeconds(2))
        .alias(waitStrategyTarget.getContainerInfo().getName() + " healthy")
        .until(
            () -> {
              InspectContainerResponse.ContainerState estado =
                  waitStrategyTarget.getCurrentContainerInfo().getState();
              return estado.getHealth() != null && "healthy".equals(estado.getHealth().getStatus());
            });
  }
}
