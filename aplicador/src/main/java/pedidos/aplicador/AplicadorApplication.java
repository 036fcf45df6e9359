package pedidos.aplicador;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import pedidos.aplicador.comandos.LinhaDeComando;
import pedidos.esquema.EsquemaNaPartida;

/**
 * The applier service: turns stored facts into the pedidos table and outbox effects. With a command
 * as its first argument ({@code replay}, {@code migrar}, {@code apagar-cliente}, {@code reter};
 * {@code --help} lists them) it runs that instead and exits ({@link LinhaDeComando}).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AplicadorApplication {

  public static void main(String[] args) {
    if (LinhaDeComando.pedeUmComando(args)) {
      System.exit(LinhaDeComando.executar(args, System.getenv(), AplicadorApplication::semOuvinte));
    }
    SpringApplication.run(AplicadorApplication.class, args);
  }

  /** The context of a command that needs the service's beans: nothing of it serves traffic. */
  static ConfigurableApplicationContext semOuvinte(String... argumentos) {
    return new SpringApplicationBuilder(AplicadorApplication.class)
        .web(WebApplicationType.NONE)
        .properties(
            "spring.kafka.listener.auto-startup=false", "aplicador.tarefas-periodicas=false")
        .run(argumentos);
  }

  /**
   * Never migrates (its role cannot): refuses an unsupported PostgreSQL or a schema that is not
   * migrated, warns about a superuser.
   */
  @Bean
  FlywayMigrationStrategy esquemaVerificadoNaPartida() {
    return EsquemaNaPartida::verificar;
  }
}
