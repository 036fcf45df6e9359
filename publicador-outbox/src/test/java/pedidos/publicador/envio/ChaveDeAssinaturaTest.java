package pedidos.publicador.envio;

import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * The relay does not start without a usable signing key: the aplicador would refuse its records.
 */
class ChaveDeAssinaturaTest {

  private final ApplicationContextRunner contexto =
      new ApplicationContextRunner().withUserConfiguration(Configuracao.class);

  @Test
  void semChaveOuComChaveCurtaNaoInicia() {
    contexto.run(
        c ->
            assertThat(c)
                .getFailure()
                .rootCause()
                .hasMessageContaining("PEDIDOS_KAFKA_ASSINATURA")
                .hasMessageContaining("no Kafka record signing key"));
    contexto
        .withPropertyValues("publicador.assinatura=" + "k".repeat(40) + ",curta")
        .run(
            c ->
                assertThat(c)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("key number 2 has 5 bytes"));
  }

  @Test
  void comChavesValidasInicia() {
    contexto
        .withPropertyValues("publicador.assinatura=" + "k".repeat(32) + "," + "n".repeat(64))
        .run(c -> assertThat(c).hasNotFailed().hasSingleBean(EnviadorDeMensagens.class));
  }

  @Configuration
  @EnableConfigurationProperties(PublicadorProperties.class)
  @Import({EnviadorDeMensagens.class, MetricasDoPublicador.class})
  static class Configuracao {

    @Bean
    SimpleMeterRegistry metricas() {
      return new SimpleMeterRegistry();
    }

    @Bean
    Clock relogio() {
      return Clock.systemUTC();
    }

    /** Never connects: the producer is created on the first send, and none happens here. */
    @Bean
    KafkaTemplate<String, String> kafka() {
      return new KafkaTemplate<>(
          new DefaultKafkaProducerFactory<>(
              Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1")));
    }
  }
}
