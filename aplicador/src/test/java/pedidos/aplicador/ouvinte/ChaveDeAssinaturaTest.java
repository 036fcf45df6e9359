package pedidos.aplicador.ouvinte;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;

/** The aplicador does not start without a usable key: it could tell no record from a forgery. */
class ChaveDeAssinaturaTest {

  private final ApplicationContextRunner contexto =
      new ApplicationContextRunner()
          .withUserConfiguration(Configuracao.class)
          .withPropertyValues("aplicador.assinatura=${PEDIDOS_KAFKA_ASSINATURA:}");

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
        .withPropertyValues("PEDIDOS_KAFKA_ASSINATURA=curta")
        .run(
            c ->
                assertThat(c)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("key number 1 has 5 bytes"));
  }

  @Test
  void variasChavesSeparadasPorVirgulaSaoAceitas() {
    contexto
        .withPropertyValues("PEDIDOS_KAFKA_ASSINATURA=" + "k".repeat(32) + "," + "n".repeat(64))
        .run(
            c -> {
              assertThat(c).hasNotFailed();
              assertThat(c.getBean(AplicadorProperties.class).assinatura()).hasSize(2);
              assertThat(c.getBean(AplicadorProperties.class).toString()).doesNotContain("kkkk");
            });
  }

  @Configuration
  @EnableConfigurationProperties(AplicadorProperties.class)
  @Import({VerificadorDeRegistros.class, MetricasDoAplicador.class})
  static class Configuracao {

    @Bean
    SimpleMeterRegistry metricas() {
      return new SimpleMeterRegistry();
    }
  }
}
