package pedidos.publicador.linhas;

import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One row ready for Kafka.
 *
 * @param origem the row it was made from, recorded if Kafka refuses it for good
 * @param efeito the outbox row to mark as sent once Kafka acknowledges; null for inbox rows
 * @param commit when the row's transaction committed (from the stream); null when re-sent from the
 *     table, where the relay's lag means nothing
 */
public record Mensagem(
    OrigemDaLinha origem,
    ProducerRecord<String, String> registro,
    ChaveDoEfeito efeito,
    Instant commit) {

  public Tabela tabela() {
    return origem.tabela();
  }
}
