package pedidos.aplicador;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

/** The topics the applier reads and writes, and the one error handler of its listener. */
@Configuration(proxyBeanMethods = false)
class ConfiguracaoDoKafka {

  @Bean
  NewTopic topicoDeEventos(AplicadorProperties propriedades) {
    return TopicBuilder.name(propriedades.topico()).partitions(propriedades.particoes()).build();
  }

  @Bean
  NewTopic topicoDeDescarte(AplicadorProperties propriedades) {
    return TopicBuilder.name(propriedades.topicoDeDescarte())
        .partitions(propriedades.particoes())
        .build();
  }

  /**
   * Transient failures are retried without limit, with back-off, holding the partition: the record
   * is never skipped. A record that can never be applied goes straight to the dead-letter topic
   * (the reason travels in its headers); one failing in an unknown way goes there after a few
   * attempts, so no poison record blocks its partition forever.
   */
  @Bean
  DefaultErrorHandler tratadorDeErros(
      KafkaOperations<Object, Object> kafka, AplicadorProperties propriedades) {
    var descarte =
        new DeadLetterPublishingRecoverer(
            kafka,
            (registro, falha) ->
                new TopicPartition(propriedades.topicoDeDescarte(), registro.partition()));
    var tratador = new DefaultErrorHandler(descarte);
    tratador.setBackOffFunction(
        (registro, falha) ->
            FalhaTransitoria.eh(falha)
                ? espera(propriedades, ExponentialBackOff.DEFAULT_MAX_ATTEMPTS)
                : espera(propriedades, propriedades.tentativasDeFalhaDesconhecida() - 1));
    tratador.addNotRetryableExceptions(RegistroInaplicavelException.class);
    return tratador;
  }

  private static BackOff espera(AplicadorProperties propriedades, long tentativas) {
    var espera = new ExponentialBackOff(200, 2.0);
    espera.setMaxInterval(propriedades.esperaMaximaEntreTentativas().toMillis());
    espera.setMaxAttempts(tentativas);
    return espera;
  }
}
