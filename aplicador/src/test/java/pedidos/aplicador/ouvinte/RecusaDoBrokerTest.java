package pedidos.aplicador.ouvinte;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.event.ConsumerRetryAuthEvent;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import pedidos.aplicador.Assinados;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.TopicosDeTeste;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.UsuarioDoKafka;
import pedidos.testes.InfraDeTeste;

/**
 * A broker that refuses the aplicador's reads for a while (one restarted empty does, until its
 * users and ACLs exist again; so does an ACL change gone wrong) must not stop the listener for
 * good: Spring Kafka stops a container on its first authentication or authorization error unless
 * told to retry. Played with the aplicador's own principal on a topic and group of its own, which
 * it may describe (its start checks them) but not read, until the test grants the reads.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
      "aplicador.topico=" + RecusaDoBrokerTest.TOPICO,
      "aplicador.topico-de-descarte=" + RecusaDoBrokerTest.TOPICO + ".DLT",
      "aplicador.grupo=" + RecusaDoBrokerTest.GRUPO,
      "aplicador.concorrencia=1",
      "aplicador.topicos.particoes=1",
      "aplicador.tarefas-periodicas=false"
    })
class RecusaDoBrokerTest {

  static final String TOPICO = "loja.eventos.recusa";
  static final String GRUPO = "aplicador-recusa";
  private static final String APLICADOR = "User:" + UsuarioDoKafka.APLICADOR.nome();
  private static final List<AclBinding> CONCEDIDAS = new CopyOnWriteArrayList<>();

  @DynamicPropertySource
  static void infra(DynamicPropertyRegistry registro) {
    InfraDeTeste.registrar(registro, PapelNoBanco.APLICADOR);
    InfraDeTeste.propriedadesDoKafka(UsuarioDoKafka.APLICADOR)
        .forEach((nome, valor) -> registro.add(nome, () -> valor));
    TopicosDeTeste.criarComDescarte(TOPICO, 1);
    conceder(
        List.of(
            permissao(topico(TOPICO), AclOperation.DESCRIBE),
            permissao(topico(TOPICO), AclOperation.DESCRIBE_CONFIGS),
            permissao(topico(TOPICO + ".DLT"), AclOperation.DESCRIBE),
            permissao(topico(TOPICO + ".DLT"), AclOperation.DESCRIBE_CONFIGS)));
  }

  @AfterAll
  static void revogar() throws Exception {
    try (Admin admin = admin()) {
      admin.deleteAcls(CONCEDIDAS.stream().map(AclBinding::toFilter).toList()).all().get();
    }
  }

  @Autowired JdbcClient jdbc;
  @Autowired KafkaListenerEndpointRegistry ouvintes;
  @Autowired Recusas recusas;

  @Test
  void leDepoisDeOBrokerRecusarEAdmitir() throws Exception {
    await()
        .atMost(Duration.ofSeconds(60))
        .alias("the broker refused the listener's reads")
        .until(() -> recusas.vistas.get() > 0);

    conceder(
        List.of(
            permissao(topico(TOPICO), AclOperation.READ),
            permissao(
                new ResourcePattern(ResourceType.GROUP, GRUPO, PatternType.LITERAL),
                AclOperation.READ)));
    String pedido = "recusa-" + UUID.randomUUID().toString().substring(0, 8);
    try (var produtor =
        new KafkaProducer<>(
            InfraDeTeste.clienteDoKafka(ProducerConfig.ACKS_CONFIG, "all"),
            new StringSerializer(),
            new StringSerializer())) {
      produtor
          .send(Assinados.registro(TOPICO, pedido, Assinados.criado(pedido + "-e1", pedido)))
          .get();
    }

    StatusDoPedido.aguardar(jdbc, pedido, "criado", Duration.ofSeconds(60));
    assertThat(ouvintes.getListenerContainer(OuvinteDeEventos.ID).isRunning()).isTrue();
  }

  @TestConfiguration
  static class Recusas {
    final AtomicInteger vistas = new AtomicInteger();

    @EventListener
    void recusa(ConsumerRetryAuthEvent evento) {
      if (evento.getReason() == ConsumerRetryAuthEvent.Reason.AUTHORIZATION) {
        vistas.incrementAndGet();
      }
    }
  }

  private static AclBinding permissao(ResourcePattern recurso, AclOperation operacao) {
    return new AclBinding(
        recurso, new AccessControlEntry(APLICADOR, "*", operacao, AclPermissionType.ALLOW));
  }

  private static ResourcePattern topico(String nome) {
    return new ResourcePattern(ResourceType.TOPIC, nome, PatternType.LITERAL);
  }

  private static void conceder(List<AclBinding> acls) {
    try (Admin admin = admin()) {
      admin.createAcls(acls).all().get();
      CONCEDIDAS.addAll(acls);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Admin admin() {
    return Admin.create(InfraLocal.compartilhada().kafka().cliente(UsuarioDoKafka.ADMINISTRADOR));
  }
}
