package pedidos.aplicador.ouvinte;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import pedidos.aplicador.configuracao.AplicadorProperties;
import pedidos.contrato.EnvelopeDeEntrada;

/**
 * Compares {@code loja.eventos} and its dead-letter topic, as the broker describes them, with what
 * the applier needs. Reads only (describeTopics, describeConfigs): the relay owns the topics.
 *
 * <p>Intolerable: a topic missing; fewer partitions in {@code loja.eventos} than the deployment's
 * listeners need; a compacted {@code loja.eventos} or one that keeps less than the replay window
 * (replay would silently reach less far than promised); a dead-letter topic with fewer partitions
 * than {@code loja.eventos}, too small a record limit, or more in-sync replicas required than it
 * has (a dead letter that cannot be written holds its partition). Tolerable, with a warning: more
 * partitions than configured, a longer retention (emails kept longer than documented), a size limit
 * on retention, unclean leader election.
 */
final class ExameDosTopicos {

  static final String QUEM_CORRIGE =
      "The relay (publicador-outbox) owns the topics: it creates them and corrects their"
          + " settings at each start, from publicador.topicos.*";

  private final AplicadorProperties propriedades;
  private final Duration espera;

  /**
   * @param espera the longest wait for each answer of the broker
   */
  ExameDosTopicos(AplicadorProperties propriedades, Duration espera) {
    this.propriedades = propriedades;
    this.espera = espera;
  }

  /**
   * @throws KafkaSemResposta when the broker does not answer in time
   * @throws IllegalStateException when it refuses to describe them (an ACL missing, say)
   */
  List<DiferencaNoTopico> examinar(Admin admin) {
    String eventos = propriedades.topico();
    String descarte = propriedades.topicoDeDescarte();
    Optional<TopicDescription> doEventos = descrever(admin, eventos);
    Optional<TopicDescription> doDescarte = descrever(admin, descarte);
    Map<String, Config> configuracoes = new HashMap<>();
    for (Optional<TopicDescription> existente : List.of(doEventos, doDescarte)) {
      existente.ifPresent(d -> configuracoes.put(d.name(), configuracao(admin, d.name())));
    }
    List<DiferencaNoTopico> diferencas = new ArrayList<>();
    if (doEventos.isEmpty()) {
      diferencas.add(
          DiferencaNoTopico.intoleravel(
              eventos + " does not exist: start the relay (publicador-outbox), which creates it"));
    } else {
      examinarEventos(doEventos.get(), configuracoes.get(eventos), diferencas);
    }
    if (doDescarte.isEmpty()) {
      diferencas.add(
          DiferencaNoTopico.intoleravel(
              descarte
                  + " does not exist: records that can never be applied could not be set aside;"
                  + " start the relay (publicador-outbox), which creates it"));
    } else {
      examinarDescarte(
          doDescarte.get(),
          configuracoes.get(descarte),
          doEventos.map(d -> d.partitions().size()).orElse(0),
          diferencas);
    }
    return diferencas;
  }

  private void examinarEventos(
      TopicDescription topico, Config configuracao, List<DiferencaNoTopico> diferencas) {
    String nome = topico.name();
    int particoes = topico.partitions().size();
    int necessarias = propriedades.topicos().particoes();
    if (particoes < necessarias) {
      diferencas.add(
          DiferencaNoTopico.intoleravel(
              "%s has %d partition(s), fewer than the %d this aplicador needs"
                      .formatted(nome, particoes, necessarias)
                  + " (aplicador.topicos.particoes): set publicador.topicos.particoes to at least"
                  + " %d and restart the relay, which adds partitions".formatted(necessarias)));
    } else if (particoes > necessarias) {
      diferencas.add(
          DiferencaNoTopico.toleravel(
              "%s has %d partitions, more than aplicador.topicos.particoes (%d): set it to %d"
                      .formatted(nome, particoes, necessarias, particoes)
                  + " so that this check guards the count the relay makes"));
    }
    String limpeza = valor(configuracao, TopicConfig.CLEANUP_POLICY_CONFIG);
    if (limpeza != null && limpeza.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
      diferencas.add(
          DiferencaNoTopico.intoleravel(
              "%s is compacted (cleanup.policy=%s): compaction keeps one record per order, so"
                      .formatted(nome, limpeza)
                  + " replay would miss facts. The relay sets cleanup.policy=delete"));
    }
    long retencao = numero(configuracao, TopicConfig.RETENTION_MS_CONFIG, -1);
    Duration janela = propriedades.topicos().janelaDeReplay();
    if (retencao >= 0 && retencao < janela.toMillis()) {
      diferencas.add(
          DiferencaNoTopico.intoleravel(
              "%s keeps records for %s (retention.ms=%d), less than the replay window this"
                      .formatted(nome, legivel(retencao), retencao)
                  + " aplicador promises (aplicador.topicos.janela-de-replay=%s): set"
                      .formatted(legivel(janela.toMillis()))
                  + " publicador.topicos.retencao-dos-eventos to at least that and restart the"
                  + " relay, or lower the window (and the README's promise) to what you accept"));
    } else if (retencao < 0 || retencao > janela.toMillis()) {
      diferencas.add(
          DiferencaNoTopico.toleravel(
              "%s keeps records for %s, longer than the replay window (%s): customers' emails"
                      .formatted(nome, legivel(retencao), legivel(janela.toMillis()))
                  + " stay in Kafka that long (SECURITY.md, \"Personal data in Kafka\"); set"
                  + " publicador.topicos.retencao-dos-eventos to the window"));
    }
    long porTamanho = numero(configuracao, TopicConfig.RETENTION_BYTES_CONFIG, -1);
    if (porTamanho >= 0) {
      diferencas.add(
          DiferencaNoTopico.toleravel(
              "%s also deletes by size (retention.bytes=%d a partition): a busy partition may"
                      .formatted(nome, porTamanho)
                  + " keep less than the replay window. The relay sets -1"));
    }
    avisarEleicaoSuja(nome, configuracao, diferencas);
  }

  private void examinarDescarte(
      TopicDescription topico,
      Config configuracao,
      int particoesDosEventos,
      List<DiferencaNoTopico> diferencas) {
    String nome = topico.name();
    int particoes = topico.partitions().size();
    if (particoes < particoesDosEventos) {
      diferencas.add(
          DiferencaNoTopico.intoleravel(
              "%s has %d partition(s), fewer than %s's %d: a dead letter goes to the partition"
                      .formatted(nome, particoes, propriedades.topico(), particoesDosEventos)
                  + " number its record came from, so one from a partition beyond %d could not be"
                      .formatted(particoes)
                  + " set aside and would hold its partition. The relay adds them"));
    }
    long bytes = numero(configuracao, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, 0);
    if (bytes < EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE) {
      diferencas.add(
          DiferencaNoTopico.intoleravel(
              "%s takes records up to %d bytes (max.message.bytes), less than the largest dead"
                      .formatted(nome, bytes)
                  + " letter (%d bytes): one could not be set aside and would hold its partition."
                      .formatted(EnvelopeDeEntrada.BYTES_DA_MENSAGEM_DE_DESCARTE)
                  + " The relay raises it"));
    }
    int replicas = topico.partitions().get(0).replicas().size();
    long emSincronia = numero(configuracao, TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, 1);
    if (emSincronia > replicas) {
      diferencas.add(
          DiferencaNoTopico.intoleravel(
              "%s requires %d in-sync replicas (min.insync.replicas) and has %d: every dead"
                      .formatted(nome, emSincronia, replicas)
                  + " letter (acks=all) would be refused. The relay keeps it within the replicas"));
    }
    avisarEleicaoSuja(nome, configuracao, diferencas);
  }

  private static void avisarEleicaoSuja(
      String nome, Config configuracao, List<DiferencaNoTopico> diferencas) {
    if ("true".equals(valor(configuracao, TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG))) {
      diferencas.add(
          DiferencaNoTopico.toleravel(
              nome
                  + " allows unclean leader election: a broker's failover may drop acknowledged"
                  + " records. The relay sets unclean.leader.election.enable=false"));
    }
  }

  /** A span as an operator reads it: whole days, hours or minutes when it is one. */
  static String legivel(long milissegundos) {
    if (milissegundos < 0) {
      return "ever";
    }
    Duration duracao = Duration.ofMillis(milissegundos);
    if (milissegundos > 0 && milissegundos % Duration.ofDays(1).toMillis() == 0) {
      return duracao.toDays() + " day(s)";
    }
    if (milissegundos > 0 && milissegundos % Duration.ofHours(1).toMillis() == 0) {
      return duracao.toHours() + " hour(s)";
    }
    if (milissegundos > 0 && milissegundos % Duration.ofMinutes(1).toMillis() == 0) {
      return duracao.toMinutes() + " minute(s)";
    }
    return milissegundos + " ms";
  }

  private Optional<TopicDescription> descrever(Admin admin, String topico) {
    try {
      return Optional.of(
          esperar(admin.describeTopics(List.of(topico)).topicNameValues().get(topico)));
    } catch (IllegalStateException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private Config configuracao(Admin admin, String topico) {
    ConfigResource recurso = new ConfigResource(ConfigResource.Type.TOPIC, topico);
    return esperar(admin.describeConfigs(List.of(recurso)).values().get(recurso));
  }

  private <T> T esperar(KafkaFuture<T> operacao) {
    try {
      return operacao.get(espera.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new KafkaSemResposta(espera, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TimeoutException) {
        throw new KafkaSemResposta(espera, e.getCause());
      }
      throw new IllegalStateException(
          "Kafka refused to describe the aplicador's topics (its user needs Describe and"
              + " DescribeConfigs on both: docker/kafka/usuarios-e-acls.sh grants them): "
              + e.getCause(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking the aplicador's topics", e);
    }
  }

  private static String valor(Config configuracao, String nome) {
    ConfigEntry entrada = configuracao.get(nome);
    return entrada == null ? null : entrada.value();
  }

  private static long numero(Config configuracao, String nome, long seAusente) {
    String valor = valor(configuracao, nome);
    return valor == null ? seAusente : Long.parseLong(valor);
  }

  /** The broker did not answer in time: nothing can be said about the topics. */
  static final class KafkaSemResposta extends RuntimeException {
    KafkaSemResposta(Duration espera, Throwable causa) {
      super("Kafka did not answer within " + espera, causa);
    }
  }
}
