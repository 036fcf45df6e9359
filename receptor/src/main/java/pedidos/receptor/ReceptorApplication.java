package pedidos.receptor;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The webhook receptor: verify the signature, store the event, answer. Nothing else. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ReceptorApplication {

  public static void main(String[] args) {
    SpringApplication.run(ReceptorApplication.class, args);
  }
}
