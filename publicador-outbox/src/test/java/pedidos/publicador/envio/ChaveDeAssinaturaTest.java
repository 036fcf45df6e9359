package pedidos.publicador.envio;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.publicador.metricas.MetricasDoPublicador;
import pedidos.testes.ChaveDeAssinaturaExigida;

/**
 * The relay does not start without a usable signing key: the aplicador would refuse its records.
 * The rules on the keys are AssinaturaDeRegistro's, tested in the contract.
 */
class ChaveDeAssinaturaTest {

  private final ApplicationContextRunner contexto =
      new ApplicationContextRunner()
          .withUserConfiguration(Configuracao.class)
          .withBean(SimpleMeterRegistry.class)
          .withBean(Clock.class, Clock::systemUTC);

  @Test
  void semChaveUtilizavelNaoInicia() {
    ChaveDeAssinaturaExigida.verificar(contexto, "publicador.assinatura");
  }

  @Configuration
  @EnableConfigurationProperties(PublicadorProperties.class)
  @Import({EnviadorDeMensagens.class, MetricasDoPublicador.class})
  static class Configuracao {

    /** Never connects: the producer is created on the first send, and none happens here. */
    @Bean
    KafkaTemplate<String, String> kafka() {
      return new KafkaTemplate<>(
          new DefaultKafkaProducerFactory<>(
              Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1")));
    }
  }
}
