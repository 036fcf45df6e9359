package pedidos.aplicador;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The applier service: turns stored facts into the pedidos table and outbox effects. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AplicadorApplication {

  public static void main(String[] args) {
    SpringApplication.run(AplicadorApplication.class, args);
  }
}
