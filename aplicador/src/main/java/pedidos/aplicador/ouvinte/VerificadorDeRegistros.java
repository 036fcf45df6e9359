package pedidos.aplicador.ouvinte;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.springframework.stereotype.Component;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.contrato.AssinaturaDeRegistro;
import pedidos.contrato.AssinaturaDeRegistro.Veredicto;
import pedidos.contrato.TopicosDoKafka;

/**
 * Checks the relay's signature on a record before anything else looks at it (README, "Kafka
 * topics"). Anyone who can reach the broker could otherwise write an {@code order.paid} the
 * aplicador would store and apply, or an event id before the store's own webhook arrives. The
 * service does not start without a key ({@code PEDIDOS_KAFKA_ASSINATURA}).
 */
@Component
public class VerificadorDeRegistros {

  private final AssinaturaDeRegistro assinatura;
  private final MetricasDoAplicador metricas;

  VerificadorDeRegistros(AplicadorProperties propriedades, MetricasDoAplicador metricas) {
    this.assinatura = AssinaturaDeRegistro.de(propriedades.assinatura());
    this.metricas = metricas;
  }

  /**
   * @param origem {@code kafka} or {@code replay}, for the metric
   * @throws RegistroNaoAutenticadoException unless the relay signed exactly this topic, key and
   *     value
   */
  public void verificar(ConsumerRecord<String, String> registro, String origem) {
    Header cabecalho = registro.headers().lastHeader(TopicosDoKafka.CABECALHO_DE_ASSINATURA);
    Veredicto veredicto =
        assinatura.verificar(
            registro.topic(),
            bytes(registro.key()),
            bytes(registro.value()),
            cabecalho == null ? null : cabecalho.value());
    if (veredicto != Veredicto.VALIDA) {
      metricas.registroNaoAutenticado(origem, veredicto);
      throw new RegistroNaoAutenticadoException(veredicto.motivo());
    }
  }

  /**
   * The bytes as they travelled: the relay serialises with UTF-8, and a valid UTF-8 string decodes
   * and encodes back to the same bytes. A forged record with invalid UTF-8 may not, which only
   * makes its (already wrong) signature wrong.
   */
  private static byte[] bytes(String texto) {
    return texto == null ? null : texto.getBytes(StandardCharsets.UTF_8);
  }
}
