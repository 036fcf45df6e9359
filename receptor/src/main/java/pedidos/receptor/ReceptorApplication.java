package pedidos.receptor;

import java.time.Clock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;
import pedidos.esquema.EsquemaNaPartida;

/** The webhook receptor: verify the signature, store the event, answer. Nothing else. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ReceptorApplication {

  public static void main(String[] args) {
    SpringApplication receptor = new SpringApplication(ReceptorApplication.class);
    receptor.addListeners(new CompiladorEmSegundoPlano.NaPartida());
    receptor.run(args);
  }

  @Bean
  Clock relogio() {
    return Clock.systemUTC();
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
