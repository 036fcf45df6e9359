package pedidos.infra;

import static org.apache.kafka.common.acl.AclOperation.ALTER;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.IDEMPOTENT_WRITE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static pedidos.contrato.TopicosDoKafka.DESCARTE;
import static pedidos.contrato.TopicosDoKafka.EFEITOS;
import static pedidos.contrato.TopicosDoKafka.EVENTOS;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import pedidos.contrato.TopicosDoKafka;

/**
 * Who may do what on the broker: only the relay writes {@code loja.eventos} and {@code
 * separacao.efeitos}; only the aplicador's group reads {@code loja.eventos}; the picking system
 * reads only {@code separacao.efeitos}; only the relay creates or changes a topic. Everything else
 * is denied (no ACL, no access). The compose's init step ({@code docker/kafka/usuarios-e-acls.sh})
 * grants the same: the deployment test (implantacao) compares the compose broker's ACLs with {@link
 * #todas()}.
 */
public final class AclsDoKafka {

  private AclsDoKafka() {}

  public static List<AclBinding> todas() {
    List<AclBinding> acls = new ArrayList<>();
    // The relay writes both topics and owns all three (TopicosDoPublicador): it creates them
    // (CREATE), adds partitions (ALTER), reads and corrects their settings (DESCRIBE_CONFIGS,
    // ALTER_CONFIGS) before each start of its engine, and counts the brokers (cluster DESCRIBE).
    String relay = UsuarioDoKafka.PUBLICADOR.nome();
    for (String topico : List.of(EVENTOS, EFEITOS)) {
      permitir(acls, relay, topico(topico), WRITE);
    }
    for (String topico : List.of(EVENTOS, EFEITOS, DESCARTE)) {
      permitir(
          acls, relay, topico(topico), CREATE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS);
    }
    permitir(acls, relay, cluster(), IDEMPOTENT_WRITE, DESCRIBE);
    // The aplicador reads its topic in its group and writes only the dead-letter topic. It checks
    // both at start (VerificacaoDosTopicos: DESCRIBE, DESCRIBE_CONFIGS) and may change neither: no
    // CREATE, ALTER or ALTER_CONFIGS, so it can neither make a topic with the wrong partitions nor
    // shorten the retention of the dead letters it writes (the evidence of forged records).
    String aplicador = UsuarioDoKafka.APLICADOR.nome();
    permitir(acls, aplicador, topico(EVENTOS), READ, DESCRIBE, DESCRIBE_CONFIGS);
    permitir(acls, aplicador, topico(DESCARTE), WRITE, DESCRIBE, DESCRIBE_CONFIGS);
    permitir(
        acls,
        aplicador,
        grupo(TopicosDoKafka.GRUPO_DO_APLICADOR, PatternType.LITERAL),
        READ,
        DESCRIBE);
    permitir(acls, aplicador, cluster(), IDEMPOTENT_WRITE, DESCRIBE);
    // The picking system reads the effects, in groups of its own.
    String separacao = UsuarioDoKafka.SEPARACAO.nome();
    permitir(acls, separacao, topico(EFEITOS), READ, DESCRIBE);
    permitir(
        acls,
        separacao,
        grupo(TopicosDoKafka.PREFIXO_DOS_GRUPOS_DA_SEPARACAO, PatternType.PREFIXED),
        READ,
        DESCRIBE);
    return List.copyOf(acls);
  }

  private static void permitir(
      List<AclBinding> acls, String usuario, ResourcePattern recurso, AclOperation... operacoes) {
    for (AclOperation operacao : operacoes) {
      acls.add(
          new AclBinding(
              recurso,
              new AccessControlEntry("User:" + usuario, "*", operacao, AclPermissionType.ALLOW)));
    }
  }

  private static ResourcePattern topico(String nome) {
    return new ResourcePattern(ResourceType.TOPIC, nome, PatternType.LITERAL);
  }

  private static ResourcePattern grupo(String nome, PatternType tipo) {
    return new ResourcePattern(ResourceType.GROUP, nome, tipo);
  }

  private static ResourcePattern cluster() {
    return new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL);
  }
}
