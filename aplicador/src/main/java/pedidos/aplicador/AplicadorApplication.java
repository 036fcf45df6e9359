package pedidos.aplicador;

import java.util.Arrays;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import pedidos.esquema.VersaoDoPostgres;

/**
 * The applier service: turns stored facts into the pedidos table and outbox effects. With {@code
 * replay} as its first argument it runs the ops replay instead (see {@link OpcoesDeReplay}) and
 * exits.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AplicadorApplication {

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("replay")) {
      System.exit(replay(Arrays.asList(args).subList(1, args.length)));
    }
    SpringApplication.run(AplicadorApplication.class, args);
  }

  /** The replay command: no web server, no listener, no periodic work; only the replay. */
  static int replay(List<String> argumentos) {
    OpcoesDeReplay opcoes;
    try {
      opcoes = OpcoesDeReplay.ler(argumentos);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      return 2;
    }
    try (ConfigurableApplicationContext contexto =
        new SpringApplicationBuilder(AplicadorApplication.class)
            .web(WebApplicationType.NONE)
            .properties(
                "spring.kafka.listener.auto-startup=false", "aplicador.tarefas-periodicas=false")
            .run()) {
      ResumoDoReplay resumo = contexto.getBean(Replay.class).executar(opcoes, System.out);
      System.out.printf(
          "replay done: read %d, restored %d, applied %d, unapplicable %d%n",
          resumo.lidos(), resumo.restaurados(), resumo.aplicados(), resumo.inaplicaveis());
      return 0;
    }
  }

  /** An unsupported PostgreSQL is refused, by name, before anything runs on it. */
  @Bean
  FlywayMigrationStrategy migracaoEmPostgresSuportado() {
    return VersaoDoPostgres::migrarSeSuportado;
  }
}
