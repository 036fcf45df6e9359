package pedidos.aplicador.ouvinte;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.EventoAplicado;
import pedidos.aplicador.aplicacao.MetricasDoAplicador;
import pedidos.aplicador.aplicacao.PosicaoNoTopico;
import pedidos.aplicador.aplicacao.RegistroNoTopico;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.MascaraDeEmail;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.ModoDeAplicacao;

/**
 * Applies the records of {@code loja.eventos} that one poll brought, up to {@code
 * aplicador.eventos-por-transacao} of them in one transaction: the orders' advisory locks taken
 * first, in one fixed order, then each record applied as alone would be, in one round trip of reads
 * and one of writes for them all ({@link AplicadorDeEventos#guardarEAplicarJuntosNaTransacao}),
 * then one commit. A record the relay did not sign is refused first ({@link
 * VerificadorDeRegistros}): it never reaches the inbox.
 *
 * <p>It throws on failure and never catches for good: when a transaction of several records fails,
 * it is rolled back and its records are applied again one transaction each, so the record that
 * fails is known, those before it are committed, and it is thrown as a {@link
 * BatchListenerFailedException} naming that record. The error handler then commits the offsets
 * before it and retries it or sends it to the dead-letter topic, as it would a single record's
 * failure. Offsets are committed only after the listener returned or named its failed record, so
 * after the applies before it committed.
 */
@Component
class OuvinteDeEventos {

  private static final Logger log = LoggerFactory.getLogger(OuvinteDeEventos.class);

  /** The listener's container id. */
  static final String ID = "aplicador";

  private final VerificadorDeRegistros verificador;
  private final AplicadorDeEventos aplicador;
  private final TransactionTemplate transacao;
  private final MetricasDoAplicador metricas;
  private final int eventosPorTransacao;

  OuvinteDeEventos(
      VerificadorDeRegistros verificador,
      AplicadorDeEventos aplicador,
      TransactionTemplate transacao,
      MetricasDoAplicador metricas,
      AplicadorProperties propriedades) {
    this.verificador = verificador;
    this.aplicador = aplicador;
    this.transacao = transacao;
    this.metricas = metricas;
    this.eventosPorTransacao = propriedades.eventosPorTransacao();
  }

  @KafkaListener(
      id = ID,
      topics = "#{@" + ConsumoDoOuvinte.BEAN + ".topico()}",
      groupId = "#{@" + ConsumoDoOuvinte.BEAN + ".grupo()}",
      concurrency = "#{@" + ConsumoDoOuvinte.BEAN + ".concorrencia()}",
      batch = "true")
  void receber(List<ConsumerRecord<String, String>> registros) {
    for (int inicio = 0; inicio < registros.size(); inicio += eventosPorTransacao) {
      List<ConsumerRecord<String, String>> lote =
          registros.subList(inicio, Math.min(registros.size(), inicio + eventosPorTransacao));
      if (lote.size() == 1) {
        aplicarSozinho(lote.get(0));
      } else {
        aplicarJuntos(lote);
      }
    }
  }

  private void aplicarJuntos(List<ConsumerRecord<String, String>> lote) {
    long inicio = System.nanoTime();
    List<EventoAplicado> aplicados;
    try {
      // Before anything reads a value: an unsigned record is not even parsed.
      List<RegistroNoTopico> registros = new ArrayList<>(lote.size());
      for (ConsumerRecord<String, String> registro : lote) {
        registros.add(
            new RegistroNoTopico(
                ler(registro), new PosicaoNoTopico(registro.partition(), registro.offset())));
      }
      aplicados =
          transacao.execute(status -> aplicador.guardarEAplicarJuntosNaTransacao(registros));
    } catch (RuntimeException falha) {
      log.warn(
          "{} records from partition {} offset {} failed together ({}); applying them one at a time",
          lote.size(),
          lote.get(0).partition(),
          lote.get(0).offset(),
          // A database error may quote a row's values: an email among them.
          MascaraDeEmail.mascararNoTexto(falha.toString()));
      lote.forEach(this::aplicarSozinho);
      return;
    }
    long porEvento = (System.nanoTime() - inicio) / lote.size();
    aplicados.forEach(feito -> metricas.aplicado("kafka", feito, porEvento));
  }

  private void aplicarSozinho(ConsumerRecord<String, String> registro) {
    try {
      long inicio = System.nanoTime();
      RegistroDeEvento evento = ler(registro);
      transacao
          .execute(status -> aplicar(registro, evento))
          .ifPresent(feito -> metricas.aplicado("kafka", feito, System.nanoTime() - inicio));
    } catch (RuntimeException falha) {
      throw new BatchListenerFailedException(
          "record " + registro.partition() + "@" + registro.offset() + " failed", falha, registro);
    }
  }

  private RegistroDeEvento ler(ConsumerRecord<String, String> registro) {
    try (var pedido = MDC.putCloseable("pedido_id", registro.key())) {
      verificador.verificar(registro, "kafka");
      return FormatoDosRegistros.lerEvento(registro.value());
    }
  }

  private Optional<EventoAplicado> aplicar(
      ConsumerRecord<String, String> registro, RegistroDeEvento evento) {
    // Every line logged while this record is applied, by us or by the libraries, carries its ids.
    try (var pedido = MDC.putCloseable("pedido_id", registro.key());
        var id = MDC.putCloseable("evento_id", evento.eventoId())) {
      return aplicador.guardarEAplicarNaTransacao(
          evento,
          new PosicaoNoTopico(registro.partition(), registro.offset()),
          ModoDeAplicacao.NORMAL);
    }
  }
}
