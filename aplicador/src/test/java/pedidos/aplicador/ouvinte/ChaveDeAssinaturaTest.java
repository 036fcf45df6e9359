package pedidos.aplicador.ouvinte;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.testes.ChaveDeAssinaturaExigida;

/**
 * The aplicador does not start without a usable key: it could tell no record from a forgery. The
 * rules on the keys are AssinaturaDeRegistro's, tested in the contract.
 */
class ChaveDeAssinaturaTest {

  private final ApplicationContextRunner contexto =
      new ApplicationContextRunner()
          .withUserConfiguration(Configuracao.class)
          .withBean(SimpleMeterRegistry.class)
          .withPropertyValues("aplicador.assinatura=${PEDIDOS_KAFKA_ASSINATURA:}");

  @Test
  void semChaveUtilizavelNaoInicia() {
    ChaveDeAssinaturaExigida.verificar(contexto, "PEDIDOS_KAFKA_ASSINATURA");
  }

  @Test
  void asChavesNaoAparecemNasPropriedadesMostradas() {
    contexto
        .withPropertyValues("PEDIDOS_KAFKA_ASSINATURA=" + "k".repeat(32))
        .run(
            c ->
                assertThat(c.getBean(AplicadorProperties.class).toString()).doesNotContain("kkkk"));
  }

  @Configuration
  @EnableConfigurationProperties(AplicadorProperties.class)
  @Import({VerificadorDeRegistros.class, MetricasDoAplicador.class})
  static class Configuracao {}
}
