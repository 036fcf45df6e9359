package pedidos.receptor.gravacao;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import pedidos.contrato.MascaraDeEmail;
import pedidos.esquema.FalhaDoPostgres;
import pedidos.receptor.desfecho.Desfecho;
import pedidos.receptor.desfecho.Recusa;
import pedidos.receptor.evento.EventoRecebido;

/**
 * The receptor's one seam for metrics and logs: the rest of the module says what happened, this
 * class decides what is counted and what is logged. In the inbox's package because the writers
 * report through it and the HTTP edge ({@code entrada}) already depends on this package: anywhere
 * else, one of the two would close a cycle.
 *
 * <p>Prometheus names: {@code receptor_requisicoes_seconds} (histogram, tag {@code resultado}),
 * {@code receptor_eventos_duplicados_total}, {@code receptor_eventos_conflitos_total}, {@code
 * receptor_assinaturas_invalidas_total}, {@code receptor_quarentena_total}, {@code
 * receptor_gravacao_lote_linhas} (rows per statement), {@code
 * receptor_gravacao_lotes_refeitos_total}, {@code receptor_gravacao_fila} (events waiting for a
 * writer), {@code receptor_gravacao_fila_bytes} and {@code receptor_corpos_em_memoria_bytes}.
 */
@Component
public final class ObservadorDoReceptor {

  private static final Logger log = LoggerFactory.getLogger(ObservadorDoReceptor.class);
  private static final long INTERVALO_DE_LOG_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final MeterRegistry registro;
  private final ConcurrentMap<String, Timer> requisicoes = new ConcurrentHashMap<>();
  private final Counter duplicados;
  private final Counter conflitos;
  private final Counter assinaturasInvalidas;
  private final Counter taxaExcedida;
  private final Counter quarentena;
  private final Counter lotesRefeitos;
  private final DistributionSummary linhasPorLote;
  private final AtomicLong ultimoLogDeFalha =
      new AtomicLong(System.nanoTime() - 2 * INTERVALO_DE_LOG_NANOS);
  private final AtomicLong falhasSemLog = new AtomicLong();

  ObservadorDoReceptor(MeterRegistry registro) {
    this.registro = registro;
    this.duplicados =
        Counter.builder("receptor.eventos.duplicados")
            .description("Redeliveries of a stored event with an equal body")
            .register(registro);
    this.conflitos =
        Counter.builder("receptor.eventos.conflitos")
            .description("Redeliveries of a stored event id with a different body")
            .register(registro);
    this.assinaturasInvalidas =
        Counter.builder("receptor.assinaturas.invalidas")
            .description("Requests refused for a missing or wrong signature")
            .register(registro);
    this.taxaExcedida =
        Counter.builder("receptor.taxa.excedida")
            .description("Requests refused with 429 by the per-address rate limit")
            .register(registro);
    this.quarentena =
        Counter.builder("receptor.quarentena")
            .description("Signed bodies that could not be stored as events")
            .register(registro);
    this.lotesRefeitos =
        Counter.builder("receptor.gravacao.lotes.refeitos")
            .description("Batches that failed and were retried event by event")
            .register(registro);
    this.linhasPorLote =
        DistributionSummary.builder("receptor.gravacao.lote")
            .description("Rows per insert statement (1 without group commit)")
            .baseUnit("linhas")
            .publishPercentileHistogram()
            .minimumExpectedValue(1.0)
            .maximumExpectedValue(10_000.0)
            .register(registro);
  }

  /** Every request to the webhook path, with its outcome and how long it took. */
  public void requisicao(String resultado, long nanos) {
    requisicoes.computeIfAbsent(resultado, this::timer).record(nanos, TimeUnit.NANOSECONDS);
  }

  public void gravado(EventoRecebido evento, Desfecho desfecho) {
    switch (desfecho) {
      case INSERIDO -> {}
      case DUPLICADO -> duplicados.increment();
      case CONFLITO -> {
        conflitos.increment();
        log.warn(
            "Event {} (order {}) redelivered with a different body; the first body is kept",
            evento.eventoId(),
            evento.recursoId());
      }
    }
  }

  public void assinaturaInvalida() {
    assinaturasInvalidas.increment();
  }

  public void taxaExcedida() {
    taxaExcedida.increment();
  }

  public void emQuarentena(Recusa recusa, int bytes) {
    quarentena.increment();
    log.warn(
        "Signed body of {} bytes quarantined (evento_id={}): {}: {}",
        bytes,
        recusa.eventoId(),
        recusa.motivo(),
        // A parser's message may quote the body it refused: an email, masked.
        MascaraDeEmail.mascararNoTexto(recusa.getMessage()));
  }

  /** An insert statement about to run with this many rows. */
  void insercao(int linhas) {
    linhasPorLote.record(linhas);
  }

  void loteRefeitoEventoAEvento(int eventos, FalhaDoPostgres falha, Throwable erro) {
    lotesRefeitos.increment();
    log.warn(
        "A batch of {} events failed ({}: {}); retrying each event on its own",
        eventos,
        falha,
        FalhaDoBanco.descrever(erro));
  }

  /**
   * A statement that failed for good. An unexpected failure is an ERROR with its exception; an
   * unavailable database is a WARN at most once a second, however many requests it fails.
   */
  public void falhaDoBanco(int eventos, FalhaDoPostgres falha, Throwable erro) {
    switch (falha) {
      case OUTRA -> log.error("Storing {} event(s) failed unexpectedly", eventos, erro);
      // The body goes to quarantine, which logs it with its reason.
      case DADO_RECUSADO ->
          log.debug("PostgreSQL refused an event: {}", FalhaDoBanco.descrever(erro));
      case INDISPONIVEL, CONCORRENCIA -> {
        long agora = System.nanoTime();
        long ultimo = ultimoLogDeFalha.get();
        if (agora - ultimo >= INTERVALO_DE_LOG_NANOS
            && ultimoLogDeFalha.compareAndSet(ultimo, agora)) {
          log.warn(
              "Database unavailable, answering 503 ({} more failure(s) since the last log): {}",
              falhasSemLog.getAndSet(0),
              FalhaDoBanco.descrever(erro));
        } else {
          falhasSemLog.incrementAndGet();
        }
      }
    }
  }

  void linhaSumiu(EventoRecebido evento) {
    log.error(
        "Event {} was neither inserted nor found in webhook_eventos; answering 503",
        evento.eventoId());
  }

  void observarFila(Collection<?> fila, Semaphore bytesLivres, int limiteDeBytes) {
    Gauge.builder("receptor.gravacao.fila", fila, Collection::size)
        .description("Events waiting for a group-commit writer")
        .register(registro);
    Gauge.builder(
            "receptor.gravacao.fila.bytes", bytesLivres, s -> limiteDeBytes - s.availablePermits())
        .description("Bytes of the events queued for or being written by a group-commit writer")
        .baseUnit("bytes")
        .register(registro);
  }

  public void observarCorposEmMemoria(Semaphore bytesLivres, int limiteDeBytes) {
    Gauge.builder(
            "receptor.corpos.em.memoria", bytesLivres, s -> limiteDeBytes - s.availablePermits())
        .description("Bytes of request bodies held by requests in flight")
        .baseUnit("bytes")
        .register(registro);
  }

  private Timer timer(String resultado) {
    return Timer.builder("receptor.requisicoes")
        .description("Requests to the webhook endpoint by outcome")
        .tag("resultado", resultado)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofSeconds(30))
        .serviceLevelObjectives(Duration.ofMillis(50))
        .register(registro);
  }
}
