package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import pedidos.infra.UsuarioDoKafka;

/** The picking side against the real broker. */
class SistemaDeSeparacaoTest {

  @Test
  void guardaCadaEfeitoUmaVezPelaChaveEContaAsDuplicatas() throws Exception {
    String topico = KafkaDeTeste.topicoNovo();
    try (var separacao =
            SistemaDeSeparacao.iniciar(
                KafkaDeTeste.bootstrap(),
                KafkaDeTeste.seguranca(),
                topico,
                id -> id.startsWith("ord_t_"));
        KafkaProducer<String, String> produtor = KafkaDeTeste.produtor()) {
      for (int i = 0; i < 5; i++) {
        produtor
            .send(KafkaDeTeste.efeito(topico, "ord_t_" + i, "liberar_separacao", "pago", true))
            .get();
      }
      // The relay re-sends after a crash: the same key again.
      produtor
          .send(KafkaDeTeste.efeito(topico, "ord_t_0", "liberar_separacao", "pago", true))
          .get();
      produtor
          .send(KafkaDeTeste.efeito(topico, "ord_t_1", "liberar_separacao", "pago", true))
          .get();
      produtor
          .send(KafkaDeTeste.efeito(topico, "ord_t_1", "interromper_separacao", "cancelado", false))
          .get();
      produtor
          .send(KafkaDeTeste.efeito(topico, "ord_outra_1", "liberar_separacao", "pago", true))
          .get();
      produtor.send(new ProducerRecord<>(topico, "ord_t_9", "not json")).get();

      // Every record of this run's orders read, the unreadable one too: the topic has three
      // partitions, so the last one sent may well be the last one read.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> separacao.recebidas() + separacao.ilegiveis() == 9);

      assertThat(separacao.efeitos().keySet())
          .containsExactlyInAnyOrder(
              "ord_t_0:liberar_separacao",
              "ord_t_1:liberar_separacao",
              "ord_t_2:liberar_separacao",
              "ord_t_3:liberar_separacao",
              "ord_t_4:liberar_separacao",
              "ord_t_1:interromper_separacao");
      assertThat(separacao.duplicadas()).isEqualTo(2);
      assertThat(separacao.semCabecalho()).isEqualTo(1);
      assertThat(separacao.ilegiveis()).isEqualTo(1);
      assertThat(separacao.efeitos().get("ord_t_1:interromper_separacao").status())
          .isEqualTo("cancelado");
    }
  }

  @Test
  void encontraOTopicoCriadoDepoisDeComecarENaoOCria() throws Exception {
    String topico = "separacao-efeitos-" + UUID.randomUUID();
    try (var separacao =
            SistemaDeSeparacao.iniciar(
                KafkaDeTeste.bootstrap(),
                KafkaDeTeste.seguranca(),
                topico,
                id -> id.startsWith("ord_t_"));
        KafkaProducer<String, String> produtor = KafkaDeTeste.produtor()) {
      // Created after the consumer subscribed, as when the relay starts after the simulator; an
      // auto-created topic would make this fail.
      KafkaDeTeste.criar(topico);
      produtor
          .send(KafkaDeTeste.efeito(topico, "ord_t_0", "notificar_reembolso", "reembolsado", true))
          .get();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> separacao.efeitos().containsKey("ord_t_0:notificar_reembolso"));
      assertThat(separacao.duplicadas()).isZero();
    }
  }

  /**
   * A broker refuses everyone for a moment after it starts empty, until its users and ACLs exist:
   * played here by a user without the ACLs at first. The picking consumer must read once admitted,
   * not stop at the first refusal (which left a whole run without a single effect).
   */
  @Test
  void continuaDepoisDeOBrokerRecusarEAdmitir() throws Exception {
    String topico = KafkaDeTeste.topicoNovo();
    try (var separacao =
            SistemaDeSeparacao.iniciar(
                KafkaDeTeste.bootstrap(),
                UsuarioDoKafka.SEPARACAO.propriedadesDoCliente(),
                topico,
                id -> id.startsWith("ord_t_"));
        KafkaProducer<String, String> produtor = KafkaDeTeste.produtor();
        Admin admin = KafkaDeTeste.admin()) {
      produtor
          .send(KafkaDeTeste.efeito(topico, "ord_t_0", "liberar_separacao", "pago", true))
          .get();
      await().atMost(Duration.ofSeconds(30)).until(() -> separacao.recusas() > 0);

      List<AclBinding> acesso = acessoDaSeparacao(topico);
      admin.createAcls(acesso).all().get();
      try {
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> separacao.efeitos().containsKey("ord_t_0:liberar_separacao"));
      } finally {
        admin.deleteAcls(acesso.stream().map(AclBinding::toFilter).toList()).all().get();
      }
    }
  }

  private static List<AclBinding> acessoDaSeparacao(String topico) {
    String principal = "User:" + UsuarioDoKafka.SEPARACAO.nome();
    return List.of(
        new AclBinding(
            new ResourcePattern(ResourceType.TOPIC, topico, PatternType.LITERAL),
            new AccessControlEntry(principal, "*", AclOperation.READ, AclPermissionType.ALLOW)),
        new AclBinding(
            new ResourcePattern(ResourceType.GROUP, "simulador-separacao-", PatternType.PREFIXED),
            new AccessControlEntry(principal, "*", AclOperation.READ, AclPermissionType.ALLOW)));
  }
}
