package pedidos.aplicador;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import pedidos.contrato.AssinaturaDeRegistro;
import pedidos.contrato.TopicosDoKafka;
import pedidos.infra.InfraDeTeste;

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

  private static byte[] bytes(String texto) {
    return texto == null ? null : texto.getBytes(StandardCharsets.UTF_8);
  }
}
