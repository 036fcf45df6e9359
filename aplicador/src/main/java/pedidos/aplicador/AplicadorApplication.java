package pedidos.aplicador;

import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import pedidos.esquema.EsquemaNaPartida;

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
    if (args.length > 0 && args[0].equals("migrar")) {
      System.exit(migrar(System::getenv));
    }
    SpringApplication.run(AplicadorApplication.class, args);
  }

  /**
   * The migration step, run before the services (compose's {@code migracao}): every migration as
   * the owner role, named by Spring Boot's own Flyway variables ({@code SPRING_FLYWAY_URL}, else
   * {@code SPRING_DATASOURCE_URL}; {@code SPRING_FLYWAY_USER}, {@code SPRING_FLYWAY_PASSWORD}).
   */
  static int migrar(UnaryOperator<String> ambiente) {
    String url = ambiente.apply("SPRING_FLYWAY_URL");
    if (url == null || url.isBlank()) {
      url = ambiente.apply("SPRING_DATASOURCE_URL");
    }
    String usuario = ambiente.apply("SPRING_FLYWAY_USER");
    if (url == null || url.isBlank() || usuario == null || usuario.isBlank()) {
      System.err.println(
          "migrar needs SPRING_FLYWAY_URL (or SPRING_DATASOURCE_URL) and SPRING_FLYWAY_USER /"
              + " SPRING_FLYWAY_PASSWORD: the owner role of the schema");
      return 2;
    }
    EsquemaNaPartida.migrar(url, usuario, ambiente.apply("SPRING_FLYWAY_PASSWORD"));
    return 0;
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
          "replay done: read %d, restored %d, applied %d, unapplicable %d,"
              + " unsigned or wrongly signed %d%n",
          resumo.lidos(),
          resumo.restaurados(),
          resumo.aplicados(),
          resumo.inaplicaveis(),
          resumo.naoAutenticados());
      return 0;
    }
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
