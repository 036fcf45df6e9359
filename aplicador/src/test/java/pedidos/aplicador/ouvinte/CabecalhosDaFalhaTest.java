package pedidos.aplicador.ouvinte;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.support.KafkaHeaders;

/** What a dead-letter record's headers say about its failure, and what they never say. */
class CabecalhosDaFalhaTest {

  /** The names the recoverer uses by default (spring-kafka's own). */
  private static final DeadLetterPublishingRecoverer.HeaderNames NOMES =
      DeadLetterPublishingRecoverer.HeaderNames.Builder.original()
          .offsetHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET)
          .timestampHeader(KafkaHeaders.DLT_ORIGINAL_TIMESTAMP)
          .timestampTypeHeader(KafkaHeaders.DLT_ORIGINAL_TIMESTAMP_TYPE)
          .topicHeader(KafkaHeaders.DLT_ORIGINAL_TOPIC)
          .partitionHeader(KafkaHeaders.DLT_ORIGINAL_PARTITION)
          .consumerGroupHeader(KafkaHeaders.DLT_ORIGINAL_CONSUMER_GROUP)
          .exception()
          .keyExceptionFqcn(KafkaHeaders.DLT_KEY_EXCEPTION_FQCN)
          .exceptionFqcn(KafkaHeaders.DLT_EXCEPTION_FQCN)
          .exceptionCauseFqcn(KafkaHeaders.DLT_EXCEPTION_CAUSE_FQCN)
          .keyExceptionMessage(KafkaHeaders.DLT_KEY_EXCEPTION_MESSAGE)
          .exceptionMessage(KafkaHeaders.DLT_EXCEPTION_MESSAGE)
          .keyExceptionStacktrace(KafkaHeaders.DLT_KEY_EXCEPTION_STACKTRACE)
          .exceptionStacktrace(KafkaHeaders.DLT_EXCEPTION_STACKTRACE)
          .build();

  @Test
  void mensagemEPilhaNaoLevamOEmailDoCliente() {
    var causa =
        new IllegalStateException(
            "violates check constraint: {\"customer\": {\"email\": \"alice.souza@example.com\"}}");
    var falha = new RuntimeException("listener failed for bob@example.org", causa);

    var cabecalhos = cabecalhos(falha);

    assertThat(texto(cabecalhos, KafkaHeaders.DLT_EXCEPTION_MESSAGE))
        .contains("violates check constraint", "a***@example.com")
        .doesNotContain("alice.souza@");
    assertThat(texto(cabecalhos, KafkaHeaders.DLT_EXCEPTION_STACKTRACE))
        .contains("a***@example.com", "b***@example.org", "CabecalhosDaFalhaTest")
        .doesNotContain("alice.souza@", "bob@");
    assertThat(texto(cabecalhos, KafkaHeaders.DLT_EXCEPTION_CAUSE_FQCN))
        .isEqualTo(IllegalStateException.class.getName());
  }

  @Test
  void mensagemLongaContinuaCortadaDepoisDeMascarada() {
    var falha = new RuntimeException("a@b.c ".repeat(ConfiguracaoDoKafka.CARACTERES_DA_PILHA));

    var cabecalhos = cabecalhos(falha);

    assertThat(texto(cabecalhos, KafkaHeaders.DLT_EXCEPTION_MESSAGE))
        .hasSize(ConfiguracaoDoKafka.CARACTERES_DA_MENSAGEM_DE_ERRO)
        .startsWith("a***@b.c a***@b.c")
        .endsWith("…");
    assertThat(texto(cabecalhos, KafkaHeaders.DLT_EXCEPTION_STACKTRACE))
        .hasSize(ConfiguracaoDoKafka.CARACTERES_DA_PILHA)
        .doesNotContain(" a@b.c");
  }

  private static RecordHeaders cabecalhos(Exception falha) {
    var cabecalhos = new RecordHeaders();
    ConfiguracaoDoKafka.cabecalhosDaFalha(cabecalhos, falha, false, NOMES);
    return cabecalhos;
  }

  private static String texto(RecordHeaders cabecalhos, String nome) {
    var cabecalho = cabecalhos.lastHeader(nome);
    assertThat(cabecalho).as(nome).isNotNull();
    return new String(cabecalho.value(), StandardCharsets.UTF_8);
  }
}
