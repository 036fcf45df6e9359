package pedidos.aplicador;

import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one clock of the service, injected wherever time is read, so tests can hold it still. */
@Configuration(proxyBeanMethods = false)
class ConfiguracaoDoRelogio {

  @Bean
  Clock relogio() {
    return Clock.systemUTC();
  }
}
