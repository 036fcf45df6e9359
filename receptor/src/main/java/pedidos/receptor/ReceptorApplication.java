package pedidos.receptor;

import java.time.Clock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;
import pedidos.esquema.EsquemaNaPartida;

/**
 * The webhook receptor: verify the signature, store the event, answer. Nothing else.
 *
 * <p>A package per feature below this one ({@code entrada}, {@code assinatura}, {@code evento},
 * {@code gravacao}, {@code desfecho}), found by component scanning from here. This package holds
 * only what every feature reads (the configuration and the clock), and depends on none of them
 * ({@code EstruturaDosPacotesTest}).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ReceptorApplication {

  public static void main(String[] args) {
    SpringApplication.run(ReceptorApplication.class, args);
  }

  /** The one clock of the service, injected wherever time is read, so tests can hold it still. */
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
