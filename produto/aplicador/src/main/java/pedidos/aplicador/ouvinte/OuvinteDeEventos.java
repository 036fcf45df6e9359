package pedidos.aplicador.ouvinte;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.MDC;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.MetricasDoAplicador;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.PosicaoNoTopico;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.ModoDeAplicacao;

/**
 * Applies each record of {@code loja.eventos}. It throws on failure and never catches: the error
 * handler retries or sends the record to the dead-letter topic, and the offset is committed only
 * after the listener returned, so after the apply committed. A record the relay did not sign is
 * refused first ({@link VerificadorDeRegistros}): it never reaches the inbox.
 */
@Component
class OuvinteDeEventos {

  /** The listener's container id. */
  static final String ID = "aplicador";

  private final VerificadorDeRegistros verificador;
  private final AplicadorDeEventos aplicador;
  private final TransactionTemplate transacao;
  private final MetricasDoAplicador metricas;

  OuvinteDeEventos(
      VerificadorDeRegistros verificador,
      AplicadorDeEventos aplicador,
      TransactionTemplate transacao,
      MetricasDoAplicador metricas) {
    this.verificador = verificador;
    this.aplicador = aplicador;
    this.transacao = transacao;
    this.metricas = metricas;
  }

  @KafkaListener(
      id = ID,
      topics = "#{@" + ConsumoDoOuvinte.BEAN + ".topico()}",
      groupId = "#{@" + ConsumoDoOuvinte.BEAN + ".grupo()}",
      concurrency = "#{@" + ConsumoDoOuvinte.BEAN + ".concorrencia()}")
  void receber(ConsumerRecord<String, String> registro) {
    // Every line logged while this record is applied, by us or by the libraries, carries its ids.
    try (var pedido = MDC.putCloseable("pedido_id", registro.key())) {
      // Before anything reads the value: an unsigned record is not even parsed.
      verificador.verificar(registro, "kafka");
      RegistroDeEvento evento = FormatoDosRegistros.lerEvento(registro.value());
      try (var id = MDC.putCloseable("evento_id", evento.eventoId())) {
        long inicio = System.nanoTime();
        var aplicado =
            transacao.execute(
                status ->
                    aplicador.guardarEAplicarNaTransacao(
                        evento,
                        ModoDeAplicacao.NORMAL,
                        new PosicaoNoTopico(registro.partition(), registro.offset())));
        aplicado.ifPresent(feito -> metricas.aplicado("kafka", feito, System.nanoTime() - inicio));
      }
    }
  }
}
