package pedidos.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import pedidos.contrato.TopicosDoKafka;

/**
 * The broker as deployed: SASL/SCRAM for every client and the ACLs of {@link AclsDoKafka}. A client
 * without credentials gets nothing; each service's principal can do its own work and nothing else.
 */
class KafkaComAutenticacaoTest {

  private static KafkaLocal kafka;

  @BeforeAll
  static void iniciar() throws Exception {
    // A fixed port: the local run's listener, besides the test kit's own one used internally.
    // And a TLS listener: SASL over TLS, as a deployment with SASL_SSL runs it.
    kafka = KafkaLocal.builder().porta(Portas.livre()).autenticacao(true).tls(true).iniciar();
    try (Admin admin = Admin.create(kafka.cliente(UsuarioDoKafka.ADMINISTRADOR))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(TopicosDoKafka.EVENTOS, 1, (short) 1),
                  new NewTopic(TopicosDoKafka.EFEITOS, 1, (short) 1)))
          .all()
          .get();
    }
  }

  @AfterAll
  static void parar() {
    kafka.close();
  }

  @Test
  void clienteSemCredenciaisERecusado() {
    Map<String, Object> semCredenciais = new HashMap<>();
    semCredenciais.put("bootstrap.servers", kafka.bootstrapServers());
    semCredenciais.put("default.api.timeout.ms", "3000");
    semCredenciais.put("request.timeout.ms", "1000");
    try (Admin admin = Admin.create(semCredenciais)) {
      // The broker expects a SASL handshake and drops the connection: no answer ever comes.
      assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
          .isInstanceOf(ExecutionException.class);
    }
  }

  @Test
  void senhaErradaERecusada() {
    Map<String, Object> errada = kafka.cliente(UsuarioDoKafka.PUBLICADOR);
    errada.put(
        "sasl.jaas.config", UsuarioDoKafka.jaas(UsuarioDoKafka.PUBLICADOR.nome(), "nao-e-a-senha"));
    try (var produtor = produtor(errada)) {
      assertThatThrownBy(
              () -> produtor.send(new ProducerRecord<>(TopicosDoKafka.EVENTOS, "k", "v")).get())
          .hasCauseInstanceOf(SaslAuthenticationException.class);
    }
  }

  @Test
  void soOPublicadorEscreveOsTopicosEOAplicadorLeOsEventos() throws Exception {
    try (var publicador = produtor(kafka.cliente(UsuarioDoKafka.PUBLICADOR))) {
      publicador.send(new ProducerRecord<>(TopicosDoKafka.EVENTOS, "ord_1", "evento")).get();
    }
    try (var aplicador = produtor(kafka.cliente(UsuarioDoKafka.APLICADOR))) {
      assertThatThrownBy(
              () ->
                  aplicador
                      .send(new ProducerRecord<>(TopicosDoKafka.EVENTOS, "ord_1", "forjado"))
                      .get())
          .hasCauseInstanceOf(TopicAuthorizationException.class);
    }
    assertThat(primeiro(UsuarioDoKafka.APLICADOR, "aplicador", TopicosDoKafka.EVENTOS).value())
        .isEqualTo("evento");
  }

  @Test
  void aSeparacaoLeSoOsEfeitos() throws Exception {
    try (var publicador = produtor(kafka.cliente(UsuarioDoKafka.PUBLICADOR))) {
      publicador.send(new ProducerRecord<>(TopicosDoKafka.EFEITOS, "ord_2", "efeito")).get();
    }
    assertThat(
            primeiro(UsuarioDoKafka.SEPARACAO, "separacao-teste", TopicosDoKafka.EFEITOS).value())
        .isEqualTo("efeito");
    assertThatThrownBy(
            () -> primeiro(UsuarioDoKafka.SEPARACAO, "separacao-teste", TopicosDoKafka.EVENTOS))
        .isInstanceOf(TopicAuthorizationException.class);
    try (var separacao = produtor(kafka.cliente(UsuarioDoKafka.SEPARACAO))) {
      assertThatThrownBy(
              () ->
                  separacao.send(new ProducerRecord<>(TopicosDoKafka.EFEITOS, "ord_2", "x")).get())
          // Refused before the topic is even asked about: it may write nowhere (no producer id).
          .cause()
          .isInstanceOf(AuthorizationException.class);
    }
  }

  @Test
  void sobreTlsOsMesmosUsuariosTrabalham() throws Exception {
    try (var publicador = produtor(kafka.clienteTls(UsuarioDoKafka.PUBLICADOR))) {
      publicador.send(new ProducerRecord<>(TopicosDoKafka.EFEITOS, "ord_tls", "por-tls")).get();
    }
    // Other tests write the same topic: the one with this key is this test's.
    assertThat(
            primeiro(
                    kafka.clienteTls(UsuarioDoKafka.SEPARACAO),
                    "separacao-tls",
                    TopicosDoKafka.EFEITOS,
                    "ord_tls")
                .value())
        .isEqualTo("por-tls");
  }

  @Test
  void ouvinteTlsRecusaQuemNaoConfiaNoCertificadoOuFalaSemTls() {
    Map<String, Object> semConfianca = kafka.clienteTls(UsuarioDoKafka.PUBLICADOR);
    semConfianca.remove("ssl.truststore.location");
    semConfianca.remove("ssl.truststore.password");
    semConfianca.remove("ssl.truststore.type");
    try (var produtor = produtor(semConfianca)) {
      assertThatThrownBy(
              () -> produtor.send(new ProducerRecord<>(TopicosDoKafka.EVENTOS, "k", "v")).get())
          .hasCauseInstanceOf(SslAuthenticationException.class);
    }

    Map<String, Object> semTls = kafka.cliente(UsuarioDoKafka.PUBLICADOR);
    semTls.put("bootstrap.servers", kafka.bootstrapServersTls().orElseThrow());
    semTls.put("default.api.timeout.ms", "3000");
    semTls.put("request.timeout.ms", "1000");
    try (Admin admin = Admin.create(semTls)) {
      // A SASL handshake sent in clear is not a TLS hello: the broker drops the connection.
      assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
          .isInstanceOf(ExecutionException.class);
    }
  }

  /**
   * The relay owns the topics: it creates them, adds partitions and changes their settings. The
   * aplicador may read their settings (its start-up check) and change nothing.
   */
  @Test
  void soORelayCriaEAlteraOsTopicosOAplicadorSoOsDescreve() throws Exception {
    ConfigResource descarte =
        new ConfigResource(ConfigResource.Type.TOPIC, TopicosDoKafka.DESCARTE);
    ConfigResource eventos = new ConfigResource(ConfigResource.Type.TOPIC, TopicosDoKafka.EVENTOS);
    try (Admin aplicador = Admin.create(kafka.cliente(UsuarioDoKafka.APLICADOR))) {
      assertThatThrownBy(
              () ->
                  aplicador
                      .createTopics(List.of(new NewTopic(TopicosDoKafka.DESCARTE, 1, (short) 1)))
                      .all()
                      .get())
          .hasCauseInstanceOf(TopicAuthorizationException.class);
    }
    try (Admin relay = Admin.create(kafka.cliente(UsuarioDoKafka.PUBLICADOR))) {
      relay.createTopics(List.of(new NewTopic(TopicosDoKafka.DESCARTE, 1, (short) 1))).all().get();
      relay
          .createPartitions(Map.of(TopicosDoKafka.DESCARTE, NewPartitions.increaseTo(2)))
          .all()
          .get();
      relay.incrementalAlterConfigs(Map.of(descarte, List.of(retencao("86400000")))).all().get();
      assertThat(relay.describeConfigs(List.of(descarte)).all().get()).containsKey(descarte);
    }
    try (Admin aplicador = Admin.create(kafka.cliente(UsuarioDoKafka.APLICADOR))) {
      assertThat(
              aplicador
                  .describeTopics(List.of(TopicosDoKafka.EVENTOS, TopicosDoKafka.DESCARTE))
                  .allTopicNames()
                  .get())
          .hasSize(2);
      assertThat(aplicador.describeConfigs(List.of(eventos, descarte)).all().get())
          .containsKeys(eventos, descarte);
      for (ConfigResource topico : List.of(eventos, descarte)) {
        assertThatThrownBy(
                () ->
                    aplicador
                        .incrementalAlterConfigs(Map.of(topico, List.of(retencao("1"))))
                        .all()
                        .get())
            .as("the dead letters' retention, say, is not the aplicador's to shorten")
            .hasCauseInstanceOf(TopicAuthorizationException.class);
        assertThatThrownBy(
                () ->
                    aplicador
                        .createPartitions(Map.of(topico.name(), NewPartitions.increaseTo(4)))
                        .all()
                        .get())
            .hasCauseInstanceOf(TopicAuthorizationException.class);
      }
    }
  }

  private static AlterConfigOp retencao(String milissegundos) {
    return new AlterConfigOp(
        new ConfigEntry(TopicConfig.RETENTION_MS_CONFIG, milissegundos), AlterConfigOp.OpType.SET);
  }

  private static KafkaProducer<String, String> produtor(Map<String, Object> cliente) {
    Map<String, Object> configuracao = new HashMap<>(cliente);
    configuracao.put("max.block.ms", "10000");
    configuracao.put("delivery.timeout.ms", "10000");
    configuracao.put("request.timeout.ms", "5000");
    return new KafkaProducer<>(configuracao, new StringSerializer(), new StringSerializer());
  }

  /** The first record of the topic, read as the user in the group; throws what the broker says. */
  private static ConsumerRecord<String, String> primeiro(
      UsuarioDoKafka usuario, String grupo, String topico) {
    return primeiro(kafka.cliente(usuario), grupo, topico, null);
  }

  /** The first record with the key ({@code null}: any key). */
  private static ConsumerRecord<String, String> primeiro(
      Map<String, Object> cliente, String grupo, String topico, String chave) {
    Map<String, Object> configuracao = new HashMap<>(cliente);
    configuracao.put("group.id", grupo);
    configuracao.put("auto.offset.reset", "earliest");
    try (var consumidor =
        new KafkaConsumer<>(configuracao, new StringDeserializer(), new StringDeserializer())) {
      consumidor.subscribe(List.of(topico));
      long prazo = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (System.nanoTime() - prazo < 0) {
        ConsumerRecords<String, String> lidos = consumidor.poll(Duration.ofMillis(500));
        for (ConsumerRecord<String, String> lido : lidos) {
          if (chave == null || chave.equals(lido.key())) {
            return lido;
          }
        }
      }
      throw new AssertionError("nothing read from " + topico + " in 30 s");
    }
  }
}
