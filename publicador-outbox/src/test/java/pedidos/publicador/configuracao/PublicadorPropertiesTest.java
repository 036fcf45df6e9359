package pedidos.publicador.configuracao;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/** Defaults fit for production, and a wrong value stops the start with its name. */
class PublicadorPropertiesTest {

  private final ApplicationContextRunner contexto =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
          .withUserConfiguration(Configuracao.class);

  @Test
  void padroes() {
    contexto.run(
        c -> {
          PublicadorProperties p = c.getBean(PublicadorProperties.class);
          assertThat(p.slot()).isEqualTo("publicador_outbox");
          assertThat(p.publicacao()).isEqualTo("publicador_outbox");
          assertThat(p.topicos().eventos()).isEqualTo("loja.eventos");
          assertThat(p.topicos().efeitos()).isEqualTo("separacao.efeitos");
          assertThat(p.topicos().eventosDlt()).isEqualTo("loja.eventos.DLT");
          assertThat(p.topicos().particoes()).isEqualTo(12);
          assertThat(p.topicos().replicas()).isEqualTo((short) 1);
          assertThat(p.topicos().replicasEmSincronia()).isEqualTo((short) 1);
          assertThat(p.topicos().retencaoDosEventos()).isEqualTo(Duration.ofDays(14));
          assertThat(p.topicos().retencaoDoDescarte()).isEqualTo(Duration.ofDays(14));
          assertThat(p.topicos().retencaoDosEfeitos()).isEqualTo(Duration.ofDays(30));
          assertThat(p.debezium().intervaloDePoll()).isEqualTo(Duration.ofMillis(10));
          assertThat(p.trava().intervalo()).isEqualTo(Duration.ofSeconds(1));
          assertThat(p.trava().validade()).isEqualTo(Duration.ofSeconds(10));
          assertThat(p.trava().vigencia()).isEqualTo(Duration.ofSeconds(5));
          assertThat(p.reenvio().idade()).isEqualTo(Duration.ofMinutes(1));
          assertThat(p.debezium().propriedades()).isEmpty();
          assertThat(p.entrega().efeitosPorSegundo()).isEqualTo(100);
          assertThat(p.entrega().intervalo()).isEqualTo(Duration.ofSeconds(1));
        });
  }

  @Test
  void valoresInvalidosImpedemOInicio() {
    contexto
        .withPropertyValues("publicador.slot=Nome-Invalido")
        .run(c -> assertThat(c).hasFailed());
    contexto
        .withPropertyValues("publicador.topicos.particoes=0")
        .run(c -> assertThat(c).hasFailed());
    contexto
        .withPropertyValues("publicador.reinicio.inicial=0s")
        .run(c -> assertThat(c).hasFailed());
    // A unit forgotten: 14 milliseconds would empty the topic as fast as the relay fills it.
    contexto
        .withPropertyValues("publicador.topicos.retencao-dos-eventos=14")
        .run(c -> assertThat(c).hasFailed());
    contexto
        .withPropertyValues(
            "publicador.topicos.replicas=1", "publicador.topicos.replicas-em-sincronia=2")
        .run(
            c ->
                assertThat(c)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("replicas-em-sincronia (2) cannot exceed"));
    // One late heartbeat must not cost the lease.
    contexto
        .withPropertyValues("publicador.trava.intervalo=3s", "publicador.trava.validade=10s")
        .run(
            c ->
                assertThat(c)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("at least four times publicador.trava.intervalo"));
    contexto.withPropertyValues("publicador.trava.validade=1s").run(c -> assertThat(c).hasFailed());
    // A drain that never sends, or one that floods the picking system it waited for.
    contexto
        .withPropertyValues("publicador.entrega.efeitos-por-segundo=0")
        .run(c -> assertThat(c).hasFailed());
    contexto
        .withPropertyValues("publicador.entrega.efeitos-por-segundo=100000")
        .run(c -> assertThat(c).hasFailed());
    contexto
        .withPropertyValues("publicador.entrega.intervalo=5m")
        .run(c -> assertThat(c).hasFailed());
  }

  @Configuration
  @EnableConfigurationProperties(PublicadorProperties.class)
  static class Configuracao {}
}
