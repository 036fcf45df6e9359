package pedidos.aplicador.ouvinte;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.aplicador.Assinados;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.TopicoDeDescarte;
import pedidos.aplicador.TopicosDeTeste;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.UsuarioDoKafka;
import pedidos.testes.InfraDeTeste;

/**
 * The applier over SASL_SSL, configured only through the standard Spring Kafka properties a
 * deployment sets (README, "Kafka security"): its listener reads, and its dead-letter producer
 * writes, through a broker address that speaks nothing but TLS. A topic and group of its own, so
 * that the module's other context, on the plain listener, cannot be the one that did the work.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
      "aplicador.topico=" + AplicadorSobreTlsTest.TOPICO,
      "aplicador.topico-de-descarte=" + AplicadorSobreTlsTest.TOPICO + ".DLT",
      "aplicador.grupo=aplicador-tls",
      "aplicador.concorrencia=2",
      "aplicador.topicos.particoes=1",
      "aplicador.espera-maxima-entre-tentativas=500ms",
      "aplicador.tarefas-periodicas=false"
    })
class AplicadorSobreTlsTest {

  static final String TOPICO = "loja.eventos.tls";

  @DynamicPropertySource
  static void infra(DynamicPropertyRegistry registro) {
    InfraDeTeste.registrar(registro, PapelNoBanco.APLICADOR);
    InfraDeTeste.propriedadesDoKafkaSobreTls(UsuarioDoKafka.ADMINISTRADOR)
        .forEach((nome, valor) -> registro.add(nome, () -> valor));
    // The relay's, in a deployment: the applier checks them at start and creates none.
    TopicosDeTeste.criarComDescarte(TOPICO, 1);
  }

  @Autowired JdbcClient jdbc;
  @Autowired KafkaListenerEndpointRegistry ouvintes;
  @Autowired AtribuicaoDoOuvinte atribuicao;
  @Autowired AplicadorProperties propriedades;

  private final String p = "tls-" + UUID.randomUUID().toString().substring(0, 8) + "-";

  @Test
  void aplicaOAssinadoEDescartaOForjadoPeloOuvinteTls() throws Exception {
    String pedido = p + "pedido";
    String forjado = p + "forjado";
    try (var produtor =
        new KafkaProducer<>(
            InfraDeTeste.clienteDoKafka(ProducerConfig.ACKS_CONFIG, "all"),
            new StringSerializer(),
            new StringSerializer())) {
      produtor.send(Assinados.registro(TOPICO, pedido, Assinados.criado(p + "e1", pedido))).get();
      produtor
          .send(new ProducerRecord<>(TOPICO, forjado, Assinados.criado(p + "e2", forjado)))
          .get();
    }

    StatusDoPedido.aguardar(jdbc, pedido, "criado", Duration.ofSeconds(60));
    assertThat(TopicoDeDescarte.ler(TOPICO + ".DLT", forjado, 1))
        .as("the dead-letter producer, over TLS too")
        .hasSize(1);
  }

  /** The listener takes its topic, group and threads from the settings, none from a default. */
  @Test
  void ouvinteUsaTopicoGrupoEConcorrenciaDasPropriedades() {
    var conteiner =
        (ConcurrentMessageListenerContainer<?, ?>)
            ouvintes.getListenerContainer(OuvinteDeEventos.ID);
    assertThat(conteiner.getContainerProperties().getTopics()).containsExactly(TOPICO);
    assertThat(conteiner.getGroupId()).isEqualTo("aplicador-tls");
    assertThat(conteiner.getConcurrency()).isEqualTo(2);
  }

  /**
   * Ready once each consumer has joined and been given its partitions, though one of the two gets
   * none (one partition): not before, and not waiting for an assignment that cannot come.
   */
  @Test
  void prontoQuandoCadaConsumidorRecebeuSuasParticoes() {
    assertThat(new AtribuicaoDoOuvinte(propriedades).health().getStatus())
        .as("no consumer has joined yet")
        .isEqualTo(Status.OUT_OF_SERVICE);

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              var saude = atribuicao.health();
              assertThat(saude.getStatus()).isEqualTo(Status.UP);
              assertThat(saude.getDetails())
                  .containsEntry("consumidores", 2)
                  .containsEntry("consumidoresComParticoesAtribuidas", 2)
                  .containsEntry("particoes", 1);
            });
  }
}
