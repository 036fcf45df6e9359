package pedidos.publicador;

import java.time.Clock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import pedidos.esquema.EsquemaNaPartida;

/**
 * The relay: new inbox rows to {@code loja.eventos}, new outbox rows to {@code separacao.efeitos},
 * through one Debezium engine on a replication slot held by one instance at a time.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class PublicadorApplication {

  public static void main(String[] args) {
    SpringApplication.run(PublicadorApplication.class, args);
  }

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean
  ConexaoDoBanco conexaoDoBanco(PublicadorProperties propriedades, DataSourceProperties fonte) {
    return ConexaoDoBanco.de(
        propriedades.banco(),
        fonte.determineUrl(),
        fonte.determineUsername(),
        fonte.determinePassword());
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
