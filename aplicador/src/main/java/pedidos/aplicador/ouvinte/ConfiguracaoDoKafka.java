package pedidos.aplicador.ouvinte;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ConsumerRecordRecoverer;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;
import pedidos.aplicador.aplicacao.FalhaTransitoria;
import pedidos.aplicador.aplicacao.FalhasDeAplicacao;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.MascaraDeEmail;
import pedidos.contrato.RegistroDeEvento;
import pedidos.contrato.RegistroIlegivelException;
import pedidos.dominio.Resultado;

/**
 * The applier's Kafka clients and the one error handler of its listener. The topics are the relay's
 * (it creates and corrects them); this service only checks them at start ({@link
 * VerificacaoDosTopicos}).
 */
@Configuration(proxyBeanMethods = false)
class ConfiguracaoDoKafka {

  private static final Logger log = LoggerFactory.getLogger(ConfiguracaoDoKafka.class);

  /**
   * The exception's message in a dead-letter record's headers, at most (characters). With the stack
   * trace's cap, at most 60 KiB in UTF-8: well inside {@link EnvelopeDeEntrada#MARGEM_DO_DESCARTE},
   * which the relay sizes the dead-letter topic with.
   */
  static final int CARACTERES_DA_MENSAGEM_DE_ERRO = 4 << 10;

  /** The stack trace in a dead-letter record's headers, at most (characters). */
  static final int CARACTERES_DA_PILHA = 16 << 10;

  /**
   * The applier produces only dead-letter records: the largest must not be refused by the producer
   * (its default {@code max.request.size} is 1 MiB, below an event inside the envelope), or the
   * record could be neither applied nor set aside and would block its partition.
   */
  @Bean
  DefaultKafkaProducerFactoryCustomizer tamanhoDoDescarte() {
    return fabrica ->
        fabrica.updateConfigs(
            Map.of(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE));
  }

  /**
   * Transient failures are retried without limit, with back-off, holding the partition: the record
   * is never skipped. A record that can never be applied goes straight to the dead-letter topic
   * (the reason travels in its headers); one failing in an unknown way goes there after a few
   * attempts, so no poison record blocks its partition forever, and its inbox row is settled as
   * {@code falha_de_aplicacao}, so the sweep does not retry it forever either. A record without the
   * relay's signature goes straight there too, and no inbox row is stored or settled for it.
   */
  @Bean
  DefaultErrorHandler tratadorDeErros(
      KafkaOperations<Object, Object> kafka,
      AplicadorProperties propriedades,
      FalhasDeAplicacao falhas,
      MetricasDoAplicador metricas) {
    var descarte =
        new DeadLetterPublishingRecoverer(
            kafka,
            (registro, falha) ->
                new TopicPartition(propriedades.topicoDeDescarte(), registro.partition()));
    descarte.setExceptionHeadersCreator(ConfiguracaoDoKafka::cabecalhosDaFalha);
    ConsumerRecordRecoverer recuperacao =
        (registro, falhaNoLote) -> {
          Exception falha = doRegistro(falhaNoLote);
          // A forged record's event id may be a real one still pending: its row is not touched.
          if (!RegistroNaoAutenticadoException.eh(falha)) {
            assentar(falhas, metricas, registro, falha);
          }
          descarte.accept(registro, falha);
        };
    var tratador = new DefaultErrorHandler(recuperacao);
    tratador.setBackOffFunction(
        (registro, falha) ->
            FalhaTransitoria.eh(falha)
                ? espera(propriedades, ExponentialBackOff.DEFAULT_MAX_ATTEMPTS)
                : espera(propriedades, propriedades.tentativasDeFalhaDesconhecida() - 1));
    tratador.addNotRetryableExceptions(
        RegistroIlegivelException.class, RegistroNaoAutenticadoException.class);
    return tratador;
  }

  /**
   * The failure as a record listener's would be ({@link ListenerExecutionFailedException} around
   * the cause), without the {@link BatchListenerFailedException} that names the failed record of a
   * batch: the dead-letter headers and the settled row say what went wrong, not how it was
   * reported.
   */
  static Exception doRegistro(Exception falha) {
    for (Throwable causa = falha; causa != null; causa = causa.getCause()) {
      if (causa instanceof BatchListenerFailedException lote
          && lote.getCause() instanceof Exception doRegistro) {
        return new ListenerExecutionFailedException(doRegistro.getMessage(), doRegistro);
      }
      if (causa.getCause() == causa) {
        break;
      }
    }
    return falha;
  }

  /**
   * Settles the inbox row of a readable record the listener gave up on, before the record goes to
   * the dead-letter topic: the offset moves on only after both. A record that cannot be read has no
   * row. If the row cannot be stored or settled for a reason that is not transient (the same fault
   * as the apply's), the dead-letter record is all there is; a transient failure throws, and the
   * error handler tries the record again.
   */
  private static void assentar(
      FalhasDeAplicacao falhas,
      MetricasDoAplicador metricas,
      ConsumerRecord<?, ?> registro,
      Exception falha) {
    if (!(registro.value() instanceof String valor)) {
      return;
    }
    RegistroDeEvento evento;
    try {
      evento = FormatoDosRegistros.lerEvento(valor);
    } catch (RegistroIlegivelException e) {
      return;
    }
    try {
      if (falhas.assentar(evento, falha)) {
        metricas.falhaDeAplicacao("kafka");
        log.error(
            "evento_id={} settled as {} after repeated failures",
            evento.eventoId(),
            Resultado.FALHA_DE_APLICACAO.codigo(),
            falha);
      }
    } catch (RuntimeException e) {
      if (FalhaTransitoria.eh(e)) {
        throw e;
      }
      e.addSuppressed(falha);
      log.error(
          "evento_id={} could not be settled; the dead-letter topic keeps it",
          evento.eventoId(),
          e);
    }
  }

  /**
   * The default headers of a dead-letter record, with the message and the stack trace capped and
   * customer emails masked in both: an exception's message may quote a whole payload, and an
   * uncapped header could make the dead-letter record larger than the producer or the topic
   * accepts. The record's value keeps the event as it came (the dead-letter topic exists to replay
   * it), but whoever reads the headers to triage a failure sees no address there.
   */
  static void cabecalhosDaFalha(
      Headers cabecalhos,
      Exception falha,
      boolean daChave,
      DeadLetterPublishingRecoverer.HeaderNames nomes) {
    var info = nomes.getExceptionInfo();
    Throwable causa = falha.getCause() != null ? falha.getCause() : falha;
    cabecalhos.add(
        daChave ? info.getKeyExceptionFqcn() : info.getExceptionFqcn(),
        bytes(falha.getClass().getName()));
    if (!daChave && falha.getCause() != null) {
      cabecalhos.add(info.getExceptionCauseFqcn(), bytes(causa.getClass().getName()));
    }
    String mensagem = MascaraDeEmail.mascararNoTexto(String.valueOf(causa.getMessage()));
    cabecalhos.add(
        daChave ? info.getKeyExceptionMessage() : info.getExceptionMessage(),
        bytes(cortar(mensagem, CARACTERES_DA_MENSAGEM_DE_ERRO)));
    var pilha = new java.io.StringWriter();
    falha.printStackTrace(new java.io.PrintWriter(pilha));
    cabecalhos.add(
        daChave ? info.getKeyExceptionStacktrace() : info.getExceptionStacktrace(),
        bytes(cortar(MascaraDeEmail.mascararNoTexto(pilha.toString()), CARACTERES_DA_PILHA)));
  }

  static String cortar(String texto, int caracteres) {
    return texto.length() <= caracteres ? texto : texto.substring(0, caracteres - 1) + "…";
  }

  private static byte[] bytes(String texto) {
    return texto.getBytes(StandardCharsets.UTF_8);
  }

  private static BackOff espera(AplicadorProperties propriedades, long tentativas) {
    var espera = new ExponentialBackOff(200, 2.0);
    espera.setMaxInterval(propriedades.esperaMaximaEntreTentativas().toMillis());
    espera.setMaxAttempts(tentativas);
    return espera;
  }
}
