package pedidos.infra;

import static org.apache.kafka.common.acl.AclOperation.ALTER;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.IDEMPOTENT_WRITE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Who may do what on the broker: only the relay writes {@code loja.eventos} and {@code
 * separacao.efeitos}; only the aplicador's group reads {@code loja.eventos}; the picking system
 * reads only {@code separacao.efeitos}. Everything else is denied (no ACL, no access). The
 * compose's init step ({@code docker/kafka/usuarios-e-acls.sh}) grants the same: the deployment
 * test (implantacao) compares the compose broker's ACLs with {@link #todas()}.
 */
public final class AclsDoKafka {

  static final String EVENTOS = "loja.eventos";
  static final String DESCARTE = "loja.eventos.DLT";
  static final String EFEITOS = "separacao.efeitos";

  private AclsDoKafka() {}

  public static List<AclBinding> todas() {
    List<AclBinding> acls = new ArrayList<>();
    // The relay writes both topics and creates all three at start-up (TopicosDoPublicador), raising
    // the size limit (ALTER_CONFIGS) and the partitions (ALTER) of one made with the broker's
    // defaults, e.g. auto-created after the broker lost its data.
    String relay = UsuarioDoKafka.PUBLICADOR.nome();
    for (String topico : List.of(EVENTOS, EFEITOS)) {
      permitir(acls, relay, topico(topico), WRITE);
    }
    for (String topico : List.of(EVENTOS, EFEITOS, DESCARTE)) {
      permitir(
          acls, relay, topico(topico), CREATE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS);
    }
    permitir(acls, relay, cluster(), IDEMPOTENT_WRITE, DESCRIBE);
    // The aplicador reads its topic in its group, writes only the dead-letter topic, and declares
    // both topics (NewTopic beans) with their sizes and partitions.
    String aplicador = UsuarioDoKafka.APLICADOR.nome();
    permitir(acls, aplicador, topico(EVENTOS), READ, DESCRIBE);
    permitir(acls, aplicador, topico(DESCARTE), WRITE, DESCRIBE);
    for (String topico : List.of(EVENTOS, DESCARTE)) {
      permitir(acls, aplicador, topico(topico), CREATE, ALTER, DESCRIBE_CONFIGS, ALTER_CONFIGS);
    }
    permitir(acls, aplicador, grupo("aplicador", PatternType.LITERAL), READ, DESCRIBE);
    permitir(acls, aplicador, cluster(), IDEMPOTENT_WRITE, DESCRIBE);
    // The picking system reads the effects, in groups of its own.
    String separacao = UsuarioDoKafka.SEPARACAO.nome();
    permitir(acls, separacao, topico(EFEITOS), READ, DESCRIBE);
    permitir(acls, separacao, grupo("separacao", PatternType.PREFIXED), READ, DESCRIBE);
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
