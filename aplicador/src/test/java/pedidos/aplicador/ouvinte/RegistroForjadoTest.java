package pedidos.aplicador.ouvinte;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.aplicador.Assinados;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.TopicoDeDescarte;
import pedidos.aplicador.replay.OpcoesDeReplay;
import pedidos.aplicador.replay.Replay;
import pedidos.contrato.AssinaturaDeRegistro;
import pedidos.contrato.TopicosDoKafka;
import pedidos.testes.InfraDeTeste;

/**
 * Kafka is not a way in: a record written straight to {@code loja.eventos} by anyone but the relay
 * (a plain producer, no Spring, as an attacker with broker access would) is never stored nor
 * applied, and lands in the dead-letter topic with the reason; replay skips it alike.
 */
class RegistroForjadoTest extends ContextoDoAplicador {

  @Autowired JdbcClient jdbc;
  @Autowired Replay replay;
  @Autowired MeterRegistry metricas;

  private final String p = "forja-" + UUID.randomUUID().toString().substring(0, 8) + "-";
  private final KafkaProducer<String, String> produtor =
      new KafkaProducer<>(
          InfraDeTeste.clienteDoKafka(ProducerConfig.ACKS_CONFIG, "all"),
          new StringSerializer(),
          new StringSerializer());

  @AfterEach
  void fechar() {
    produtor.close();
  }

  @Test
  void pagamentoForjadoSemAssinaturaVaiParaODescarteENuncaParaACaixaDeEntrada() throws Exception {
    String pedido = p + "sem";
    double antes = recusados("ausente");

    produtor.send(new ProducerRecord<>("loja.eventos", pedido, pago(p + "e1", pedido))).get();

    ConsumerRecord<String, String> descartado = TopicoDeDescarte.ler(pedido, 1).get(0);
    assertThat(TopicoDeDescarte.motivo(descartado)).contains("record not signed");
    assertThat(eventos(p + "e1")).as("not stored").isZero();
    assertThat(pedidos(pedido)).as("not applied").isZero();
    assertThat(recusados("ausente")).isEqualTo(antes + 1);
  }

  @Test
  void assinaturaErradaOuDeOutroTopicoVaiParaODescarte() throws Exception {
    String pedido = p + "errada";
    String valor = pago(p + "e2", pedido);
    var outraChave =
        AssinaturaDeRegistro.de(List.of("uma-chave-que-o-publicador-nao-tem-0123456789"));
    var movido = Assinados.registro("separacao.efeitos", pedido, valor);

    produtor
        .send(
            comCabecalho(
                pedido, valor, outraChave.assinar("loja.eventos", bytes(pedido), bytes(valor))))
        .get();
    produtor.send(comCabecalho(pedido, valor, "v1,nao-e-base64!")).get();
    produtor
        .send(new ProducerRecord<>("loja.eventos", null, pedido, valor, movido.headers()))
        .get();

    List<ConsumerRecord<String, String>> descartados = TopicoDeDescarte.ler(pedido, 3);
    assertThat(descartados)
        .extracting(TopicoDeDescarte::motivo)
        .containsExactlyInAnyOrder(
            AssinaturaDeRegistro.Veredicto.INVALIDA.motivo(),
            AssinaturaDeRegistro.Veredicto.MALFORMADA.motivo(),
            AssinaturaDeRegistro.Veredicto.INVALIDA.motivo());
    assertThat(eventos(p + "e2")).isZero();
    assertThat(pedidos(pedido)).isZero();
  }

  /**
   * The attack the issue names: a real event id written before the store's webhook arrives, so that
   * the genuine one would be answered as a duplicate and the forged body would stay.
   */
  @Test
  void idForjadoAntesDoVerdadeiroNaoTomaOLugarDoVerdadeiro() throws Exception {
    String pedido = p + "antes";
    produtor.send(new ProducerRecord<>("loja.eventos", pedido, pago(p + "e3", pedido))).get();
    TopicoDeDescarte.ler(pedido, 1);

    String verdadeiro = Assinados.criado(p + "e3", pedido);
    produtor.send(Assinados.registro("loja.eventos", pedido, verdadeiro)).get();

    StatusDoPedido.aguardar(jdbc, pedido, "criado", Duration.ofSeconds(30));
    assertThat(
            jdbc.sql("SELECT tipo FROM webhook_eventos WHERE evento_id = ?")
                .param(p + "e3")
                .query(String.class)
                .single())
        .isEqualTo("order.created");
  }

  @Test
  void replayPulaOsForjadosEAplicaOsAssinados() throws Exception {
    String topico = "replay-forja-" + p;
    try (Admin admin = Admin.create(InfraDeTeste.clienteDoKafka())) {
      admin.createTopics(List.of(new NewTopic(topico, 1, (short) 1))).all().get();
    }
    String pedido = p + "replay";
    produtor.send(new ProducerRecord<>(topico, pedido, pago(p + "r1", pedido))).get();
    produtor.send(comCabecalho(topico, pedido, pago(p + "r2", pedido), "v1,AAAA")).get();
    produtor.send(Assinados.registro(topico, pedido, Assinados.criado(p + "r3", pedido))).get();
    var saida = new StringWriter();

    var resumo =
        replay.executar(
            new OpcoesDeReplay(topico, List.of(), null, null, null, null), new PrintWriter(saida));

    assertThat(resumo.lidos()).isEqualTo(3);
    assertThat(resumo.naoAutenticados()).isEqualTo(2);
    assertThat(resumo.restaurados()).isEqualTo(1);
    assertThat(saida.toString()).contains("record not signed").contains("wrong signature");
    assertThat(eventos(p + "r1") + eventos(p + "r2")).isZero();
    assertThat(StatusDoPedido.atual(jdbc, pedido)).isEqualTo("criado");
  }

  private static ProducerRecord<String, String> comCabecalho(
      String pedido, String valor, String assinatura) {
    return comCabecalho("loja.eventos", pedido, valor, assinatura);
  }

  private static ProducerRecord<String, String> comCabecalho(
      String topico, String pedido, String valor, String assinatura) {
    var registro = new ProducerRecord<>(topico, pedido, valor);
    registro.headers().add(TopicosDoKafka.CABECALHO_DE_ASSINATURA, bytes(assinatura));
    return registro;
  }

  private double recusados(String motivo) {
    var contador =
        metricas
            .find("aplicador.registros_nao_autenticados")
            .tags("origem", "kafka", "motivo", motivo)
            .counter();
    return contador == null ? 0 : contador.count();
  }

  private long eventos(String eventoId) {
    return jdbc.sql("SELECT count(*) FROM webhook_eventos WHERE evento_id = ?")
        .param(eventoId)
        .query(Long.class)
        .single();
  }

  private long pedidos(String pedido) {
    return jdbc.sql("SELECT count(*) FROM pedidos WHERE id = ?")
        .param(pedido)
        .query(Long.class)
        .single();
  }

  private static String pago(String eventoId, String pedido) {
    return Assinados.evento(eventoId, pedido, "order.paid", 2);
  }

  private static byte[] bytes(String texto) {
    return texto.getBytes(StandardCharsets.UTF_8);
  }
}
