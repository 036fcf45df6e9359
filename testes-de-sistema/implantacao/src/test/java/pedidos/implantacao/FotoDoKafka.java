package pedidos.implantacao;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * What the broker keeps on its volume, as an administrator sees it: the topics and their
 * partitions, each partition's end offset, the aplicador group's committed offsets, the ACLs and
 * the SCRAM users (the last two live in the metadata log).
 */
record FotoDoKafka(
    Map<String, Integer> particoes,
    Map<String, Long> fins,
    Map<String, Long> offsetsDoAplicador,
    Set<String> acls,
    Set<String> usuarios) {

  static final List<String> TOPICOS = List.of("loja.eventos", "separacao.efeitos");

  static FotoDoKafka tirar(Admin admin) throws ExecutionException, InterruptedException {
    Set<String> nomes = admin.listTopics().names().get();
    Map<String, TopicDescription> descricoes = admin.describeTopics(nomes).allTopicNames().get();
    Map<String, Integer> particoes = new TreeMap<>();
    descricoes.forEach((nome, descricao) -> particoes.put(nome, descricao.partitions().size()));

    Map<TopicPartition, OffsetSpec> pedidos =
        descricoes.values().stream()
            .filter(descricao -> TOPICOS.contains(descricao.name()))
            .flatMap(
                descricao ->
                    descricao.partitions().stream()
                        .map(p -> new TopicPartition(descricao.name(), p.partition())))
            .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest()));
    Map<String, Long> fins = new TreeMap<>();
    admin
        .listOffsets(pedidos)
        .all()
        .get()
        .forEach((particao, fim) -> fins.put(particao.toString(), fim.offset()));

    Map<String, Long> offsets = new TreeMap<>();
    Map<TopicPartition, OffsetAndMetadata> doGrupo =
        admin.listConsumerGroupOffsets("aplicador").partitionsToOffsetAndMetadata().get();
    doGrupo.forEach(
        (particao, offset) -> {
          if (offset != null) {
            offsets.put(particao.toString(), offset.offset());
          }
        });

    Set<String> acls =
        admin.describeAcls(AclBindingFilter.ANY).values().get().stream()
            .map(Object::toString)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> usuarios =
        admin.describeUserScramCredentials().all().get().values().stream()
            .map(UserScramCredentialsDescription::name)
            .collect(Collectors.toCollection(TreeSet::new));
    return new FotoDoKafka(particoes, fins, offsets, acls, usuarios);
  }

  /** Sum of loja.eventos' end offsets: records the relay has written there. */
  long registrosDosEventos() {
    return fins.entrySet().stream()
        .filter(fim -> fim.getKey().startsWith("loja.eventos-"))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /** The aplicador group has committed the end of every partition of loja.eventos. */
  boolean aplicadorEmDia() {
    return fins.entrySet().stream()
        .filter(fim -> fim.getKey().startsWith("loja.eventos-"))
        .allMatch(fim -> fim.getValue().equals(offsetsDoAplicador.getOrDefault(fim.getKey(), 0L)));
  }
}
