package pedidos.publicador.configuracao;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;
import pedidos.contrato.TopicosDoKafka;
import pedidos.gestao.ComOps;
import pedidos.gestao.Ops;

/**
 * Everything the relay can be told, under {@code publicador.*}; every field has a default fit for
 * production, so a deployment sets only the standard Spring variables.
 *
 * @param slot the logical replication slot; also names the lease and the stored offsets, so every
 *     instance of one relay uses the same value
 * @param publicacao the publication created by the migrations ({@code V5__publicador.sql})
 * @param prefixo Debezium's {@code topic.prefix}; it also names Debezium's JMX beans, so two
 *     engines in one JVM need different values (instances in different JVMs share it)
 * @param esquema the schema of {@code webhook_eventos} and {@code outbox}
 * @param esperaDoEnvio the longest wait for Kafka to acknowledge one record before the batch fails;
 *     above the producer's {@code delivery.timeout.ms}, which normally fails the send first
 * @param transmitir whether this process relays (the lease, the engine and the fallback); off for
 *     the {@code republicar-mortos} command, which only re-publishes dead letters and exits
 * @param ops who may read the actuator beyond health status ({@code PEDIDOS_OPS_USUARIO}, {@code
 *     PEDIDOS_OPS_SENHA}); optional: without them only the health status answers
 * @param assinatura the keys records are signed with ({@code PEDIDOS_KAFKA_ASSINATURA},
 *     comma-separated; the first signs, README "Kafka topics"); required, each at least 32 bytes,
 *     checked at start-up
 */
@ConfigurationProperties("publicador")
@Validated
public record PublicadorProperties(
    @DefaultValue("publicador_outbox") @NotNull @Pattern(regexp = "[a-z0-9_]{1,63}") String slot,
    @DefaultValue("publicador_outbox") @NotBlank String publicacao,
    @DefaultValue("publicador") @NotNull @Pattern(regexp = "[A-Za-z0-9_.-]+") String prefixo,
    @DefaultValue("public") @NotBlank String esquema,
    @DefaultValue("2m") @NotNull @DurationMin(millis = 1) Duration esperaDoEnvio,
    @DefaultValue @Valid Topicos topicos,
    @DefaultValue @Valid Banco banco,
    @DefaultValue @Valid Debezium debezium,
    @DefaultValue @Valid Trava trava,
    @DefaultValue @Valid Reinicio reinicio,
    @DefaultValue @Valid Reenvio reenvio,
    @DefaultValue @Valid Entrega entrega,
    @DefaultValue("true") boolean transmitir,
    @DefaultValue Ops ops,
    List<String> assinatura)
    implements ComOps {

  public PublicadorProperties {
    assinatura = assinatura == null ? List.of() : List.copyOf(assinatura);
  }

  /** Every field but the signing keys, which must never reach a log. */
  @Override
  public String toString() {
    return "PublicadorProperties[slot=%s, publicacao=%s, prefixo=%s, esquema=%s, esperaDoEnvio=%s, topicos=%s, banco=%s, debezium=%s, trava=%s, reinicio=%s, reenvio=%s, entrega=%s, transmitir=%s, ops=%s, assinatura=%d key(s)]"
        .formatted(
            slot,
            publicacao,
            prefixo,
            esquema,
            esperaDoEnvio,
            topicos,
            banco,
            debezium,
            trava,
            reinicio,
            reenvio,
            entrega,
            transmitir,
            ops,
            assinatura.size());
  }

  /**
   * The three topics and every setting of theirs. The relay owns them (README, "Kafka topics"): it
   * creates them, adds partitions up to {@code particoes} and sets their configuration before each
   * start of the engine, correcting whatever drifted; the aplicador only checks them. The
   * dead-letter topic is the aplicador's to write, but its size and partitions follow {@code
   * loja.eventos}, which only the relay grows.
   *
   * @param particoes partitions of each topic (added, never removed); the dead-letter topic also
   *     gets at least as many as {@code loja.eventos} has, because a dead letter goes to the
   *     partition number its record came from
   * @param replicas the replication factor of a topic the relay creates: 1 for a single broker (the
   *     local run, compose), 3 in production; an existing topic's is only compared (changing it is
   *     a partition reassignment, an operator's job)
   * @param replicasEmSincronia {@code min.insync.replicas}: with {@code acks=all}, how many
   *     replicas must have a record before it is acknowledged; 2 with 3 replicas in production; at
   *     most {@code replicas}
   * @param retencaoDosEventos {@code retention.ms} of {@code loja.eventos}: the replay window, and
   *     so how long the store's raw bodies (customers' emails) stay in Kafka
   * @param retencaoDoDescarte {@code retention.ms} of the dead-letter topic, which holds whole
   *     payloads too; a dead letter is only read to diagnose, recovery replays {@code
   *     loja.eventos}, so it needs no more than the replay window
   * @param retencaoDosEfeitos {@code retention.ms} of {@code separacao.efeitos}: how far back the
   *     picking system can re-read; its records carry no personal data
   * @param espera the longest wait for Kafka while checking or creating them
   */
  public record Topicos(
      @DefaultValue(TopicosDoKafka.EVENTOS) @NotBlank String eventos,
      @DefaultValue(TopicosDoKafka.EFEITOS) @NotBlank String efeitos,
      @DefaultValue(TopicosDoKafka.DESCARTE) @NotBlank String eventosDlt,
      @DefaultValue("" + TopicosDoKafka.PARTICOES) @Min(1) int particoes,
      @DefaultValue("1") @Min(1) short replicas,
      @DefaultValue("1") @Min(1) short replicasEmSincronia,
      @NotNull @DurationMin(hours = 1) Duration retencaoDosEventos,
      @NotNull @DurationMin(hours = 1) Duration retencaoDoDescarte,
      @NotNull @DurationMin(hours = 1) Duration retencaoDosEfeitos,
      @DefaultValue("10s") @NotNull @DurationMin(millis = 1) Duration espera) {

    public Topicos {
      // The contract's defaults: the aplicador checks loja.eventos against the same replay window.
      retencaoDosEventos =
          retencaoDosEventos == null ? TopicosDoKafka.JANELA_DE_REPLAY : retencaoDosEventos;
      retencaoDoDescarte =
          retencaoDoDescarte == null ? TopicosDoKafka.RETENCAO_DO_DESCARTE : retencaoDoDescarte;
      retencaoDosEfeitos =
          retencaoDosEfeitos == null ? TopicosDoKafka.RETENCAO_DOS_EFEITOS : retencaoDosEfeitos;
      if (replicasEmSincronia > replicas) {
        throw new IllegalArgumentException(
            "publicador.topicos.replicas-em-sincronia ("
                + replicasEmSincronia
                + ") cannot exceed publicador.topicos.replicas ("
                + replicas
                + "): no record could ever be acknowledged");
      }
    }
  }

  /**
   * Where Debezium, the lease and the offset store connect. Each field left empty is taken from
   * {@code spring.datasource.*}: set {@code url} when the pool goes through a proxy (PgBouncer in
   * transaction mode) that cannot carry replication or a session-level advisory lock.
   */
  public record Banco(String url, String usuario, String senha) {

    @Override
    public String toString() {
      return "Banco[url=" + url + ", usuario=" + usuario + ", senha=***]";
    }
  }

  /**
   * @param intervaloDePoll Debezium's {@code poll.interval.ms}: a row can wait this long before the
   *     relay sends it, so it is short (docs/BENCHMARKS-codigo.md)
   * @param intervaloDeHeartbeat how often a logical message is written so that the slot advances
   *     while the captured tables are quiet and others are written (WAL stays bounded)
   * @param intervaloDeFlush how often offsets are stored and the slot confirmed; a crash re-sends
   *     at most about this much
   * @param propriedades extra Debezium properties, applied last (they win)
   */
  public record Debezium(
      @DefaultValue("10ms") @NotNull @DurationMin(millis = 1) Duration intervaloDePoll,
      @DefaultValue("5s") @NotNull @DurationMin(millis = 1) Duration intervaloDeHeartbeat,
      @DefaultValue("1s") @NotNull @DurationMin(millis = 1) Duration intervaloDeFlush,
      @DefaultValue Map<String, String> propriedades) {}

  /**
   * The lease that makes one relay active ({@code TravaDoPublicador}).
   *
   * @param intervalo how often a standby tries to take the lease, and how often the holder proves
   *     it is alive (its heartbeat)
   * @param validade the lease's time to live: the server ends the holder's session once it has been
   *     silent this long ({@code idle_session_timeout}), which frees the lease for a standby; the
   *     holder itself stops sending once half of it has passed since its last proof, so the two
   *     never publish at once. At least four intervals, so that a heartbeat or two may be late.
   */
  public record Trava(
      @DefaultValue("1s") @NotNull @DurationMin(millis = 1) Duration intervalo,
      @DefaultValue("10s") @NotNull @DurationMin(seconds = 2) Duration validade) {

    public Trava {
      if (intervalo != null
          && validade != null
          && intervalo.multipliedBy(4).compareTo(validade) > 0) {
        throw new IllegalArgumentException(
            "publicador.trava.validade ("
                + validade
                + ") must be at least four times publicador.trava.intervalo ("
                + intervalo
                + "): the holder would lose the lease to one late heartbeat");
      }
    }

    /** How long after its last proof the holder may still send: half the time to live. */
    public Duration vigencia() {
      return validade.dividedBy(2);
    }
  }

  /**
   * Back-off between restarts of a stopped engine: doubles from {@code inicial} to {@code maxima}.
   */
  public record Reinicio(
      @DefaultValue("1s") @NotNull @DurationMin(millis = 1) Duration inicial,
      @DefaultValue("30s") @NotNull @DurationMin(millis = 1) Duration maxima) {}

  /**
   * The fallback for outbox rows the stream did not deliver (a lost slot, a restored database).
   *
   * @param idade rows unsent for longer than this are sent again; well above the normal relay
   *     latency, so that it rarely duplicates what the stream is about to send
   */
  public record Reenvio(
      @DefaultValue("1m") @NotNull @DurationMin(millis = 1) Duration idade,
      @DefaultValue("15s") @NotNull @DurationMin(millis = 1) Duration intervalo,
      @DefaultValue("500") @Min(1) int lote) {}

  /**
   * Delivery to the picking system paused and resumed by an operator (table {@code
   * entrega_dos_efeitos}, V16; README "Pausing delivery").
   *
   * @param efeitosPorSegundo after a resume, the backlog is sent from the outbox at no more than
   *     this many effects per second, oldest order first and each order's effects in the order they
   *     were born; above the rate effects are born at, or the backlog never drains
   * @param intervalo how often every instance reads the state: a pause or a resume takes effect
   *     within about this long
   */
  public record Entrega(
      @DefaultValue("100") @Min(1) @Max(10_000) int efeitosPorSegundo,
      @DefaultValue("1s") @NotNull @DurationMin(millis = 10) @DurationMax(minutes = 1)
          Duration intervalo) {}
}
