package pedidos.aplicador.comandos;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts the service's Spring context for a command that needs its beans ({@code replay}), without
 * what serves traffic: no web server, no listener, no periodic work. The application class gives
 * it, so that this package never depends on the application's.
 */
@FunctionalInterface
public interface ServicoSemOuvinte {

  ConfigurableApplicationContext iniciar();
}
