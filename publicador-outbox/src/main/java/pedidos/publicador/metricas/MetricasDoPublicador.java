package pedidos.publicador.metricas;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;
import pedidos.publicador.linhas.Mensagem;
import pedidos.publicador.linhas.Tabela;
import pedidos.publicador.linhas.Via;

/** The relay's one metrics seam. */
@Component
public class MetricasDoPublicador {

  private final Clock clock;
  private final Map<Tabela, Map<Via, Counter>> publicadas = new EnumMap<>(Tabela.class);
  private final Map<Tabela, Map<Via, Counter>> mortas = new EnumMap<>(Tabela.class);
  private final AtomicLong mortosAbertos = new AtomicLong();
  private final Timer atraso;
  private final Counter reinicios;
  private final Counter travasPerdidas;
  private final AtomicLong pendentes = new AtomicLong();
  private final AtomicLong idadeDoMaisAntigoMs = new AtomicLong();
  private final AtomicLong ativo = new AtomicLong();
  private final AtomicLong entregaPausada = new AtomicLong();
  private final AtomicLong entregaEsvaziando = new AtomicLong();
  private final AtomicLong pausaMs = new AtomicLong();
  // Negative while unknown (no slot yet, or not read yet): exposed as NaN, never as "no lag".
  private final AtomicLong atrasoDoSlot = new AtomicLong(-1);

  MetricasDoPublicador(MeterRegistry registro, Clock clock) {
    this.clock = clock;
    for (Tabela tabela : Tabela.values()) {
      Map<Via, Counter> porVia = new EnumMap<>(Via.class);
      for (Via via : Via.values()) {
        porVia.put(
            via,
            Counter.builder("publicador.linhas.publicadas")
                .description("Rows acknowledged by Kafka")
                .tag("tabela", tabela.nome())
                .tag("via", via.tag())
                .register(registro));
      }
      publicadas.put(tabela, porVia);
      Map<Via, Counter> mortasPorVia = new EnumMap<>(Via.class);
      for (Via via : Via.values()) {
        mortasPorVia.put(
            via,
            Counter.builder("publicador.linhas.mortas")
                .description(
                    "Rows dead-lettered: they could not be encoded or Kafka refused them for good")
                .tag("tabela", tabela.nome())
                .tag("via", via.tag())
                .register(registro));
      }
      mortas.put(tabela, mortasPorVia);
    }
    Gauge.builder("publicador.mortos.abertos", mortosAbertos, AtomicLong::get)
        .description("Dead-lettered rows not yet re-published (publicador_mortos)")
        .register(registro);
    atraso =
        Timer.builder("publicador.cdc.atraso")
            .description("From the row's commit to Kafka's acknowledgement")
            // Buckets, so that p50/p99 can be computed across instances and time windows.
            .publishPercentileHistogram()
            .register(registro);
    reinicios =
        Counter.builder("publicador.motor.reinicios")
            .description("Times the Debezium engine stopped and was restarted")
            .register(registro);
    travasPerdidas =
        Counter.builder("publicador.trava.perdida")
            .description(
                "Times this instance lost the lease while relaying (its session went silent or"
                    + " was ended); it then competes for the lease again")
            .register(registro);
    Gauge.builder("publicador.outbox.pendentes", pendentes, AtomicLong::get)
        .description("Outbox rows not yet acknowledged by Kafka")
        .register(registro);
    TimeGauge.builder(
            "publicador.outbox.pendente.idade",
            idadeDoMaisAntigoMs,
            TimeUnit.MILLISECONDS,
            AtomicLong::get)
        .description("Age of the oldest outbox row not yet acknowledged by Kafka")
        .register(registro);
    Gauge.builder(
            "publicador.slot.atraso",
            atrasoDoSlot,
            bytes -> bytes.get() < 0 ? Double.NaN : (double) bytes.get())
        .description(
            "WAL written since the replication slot's confirmed position: what the relay has yet"
                + " to stream and confirm, and what PostgreSQL keeps on disk for it")
        .baseUnit("bytes")
        .register(registro);
    Gauge.builder("publicador.ativo", ativo, AtomicLong::get)
        .description("1 while this instance holds the lease and relays, 0 as a standby")
        .register(registro);
    // Delivery to separacao.efeitos as the shared state says (entrega_dos_efeitos, V16), read by
    // every instance: a deliberate pause is told apart from a relay that fails to publish.
    Gauge.builder("publicador.entrega.pausada", entregaPausada, AtomicLong::get)
        .description("1 while an operator has paused delivery to the picking system")
        .register(registro);
    Gauge.builder("publicador.entrega.esvaziando", entregaEsvaziando, AtomicLong::get)
        .description("1 after a resume, while the backlog is sent at the configured pace")
        .register(registro);
    TimeGauge.builder(
            "publicador.entrega.pausa.idade", pausaMs, TimeUnit.MILLISECONDS, AtomicLong::get)
        .description("How long delivery has been paused; 0 when it is not")
        .register(registro);
  }

  public void publicada(Mensagem mensagem, Via via) {
    publicadas.get(mensagem.tabela()).get(via).increment();
    if (mensagem.commit() != null) {
      atraso.record(Duration.between(mensagem.commit(), clock.instant()));
    }
  }

  /** Outbox rows Kafka acknowledged since this instance started, by any path. */
  long outboxPublicadas() {
    return (long) publicadas.get(Tabela.OUTBOX).values().stream().mapToDouble(Counter::count).sum();
  }

  public void morta(Tabela tabela, Via via) {
    mortas.get(tabela).get(via).increment();
  }

  public void mortosAbertos(long quantidade) {
    mortosAbertos.set(quantidade);
  }

  public void reinicioDoMotor() {
    reinicios.increment();
  }

  public void travaPerdida() {
    travasPerdidas.increment();
  }

  public void pendencias(long quantidade, Duration idadeDoMaisAntigo) {
    pendentes.set(quantidade);
    idadeDoMaisAntigoMs.set(idadeDoMaisAntigo.toMillis());
  }

  /**
   * @param bytes {@code null} when the slot does not exist (yet, or any more)
   */
  public void atrasoDoSlot(Long bytes) {
    atrasoDoSlot.set(bytes == null ? -1 : bytes);
  }

  /**
   * @param pausa how long it has been paused; zero when it is not
   */
  public void entrega(boolean pausada, boolean esvaziando, Duration pausa) {
    entregaPausada.set(pausada ? 1 : 0);
    entregaEsvaziando.set(esvaziando ? 1 : 0);
    pausaMs.set(pausa.toMillis());
  }

  public void ativo(boolean ativo) {
    this.ativo.set(ativo ? 1 : 0);
  }
}
