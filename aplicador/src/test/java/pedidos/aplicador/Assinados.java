package pedidos.aplicador;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import pedidos.contrato.AssinaturaDeRegistro;
import pedidos.contrato.TopicosDoKafka;
import pedidos.testes.InfraDeTeste;

/** Records as the relay writes them: signed with the tests' key, which the context is given. */
public final class Assinados {

  private static final AssinaturaDeRegistro ASSINATURA =
      AssinaturaDeRegistro.de(List.of(InfraDeTeste.ASSINATURA_LOCAL));

  private Assinados() {}

  public static ProducerRecord<String, String> registro(String topico, String chave, String valor) {
    var registro = new ProducerRecord<>(topico, chave, valor);
    registro
        .headers()
        .add(
            TopicosDoKafka.CABECALHO_DE_ASSINATURA,
            ASSINATURA
                .assinar(topico, bytes(chave), bytes(valor))
                .getBytes(StandardCharsets.UTF_8));
    return registro;
  }

  /** A record's value as the relay writes it for a stored event of the order. */
  public static String evento(String eventoId, String pedido, String tipo, int sequencia) {
    return """
        {"evento_id": "%1$s", "recurso_id": "%2$s", "tipo": "%3$s",
         "payload": {"id": "%1$s", "type": "%3$s", "sequence": %4$d,
                     "occurred_at": "2026-11-30T10:00:00Z",
                     "data": {"id": "%2$s", "total_cents": 1990, "customer_email": "a@loja"}},
         "recebido_em": "2026-11-30T10:00:00Z"}
        """
        .formatted(eventoId, pedido, tipo, sequencia);
  }

  /** The order's {@code order.created}, the first of its events. */
  public static String criado(String eventoId, String pedido) {
    return evento(eventoId, pedido, "order.created", 1);
  }

  private static byte[] bytes(String texto) {
    return texto == null ? null : texto.getBytes(StandardCharsets.UTF_8);
  }
}
