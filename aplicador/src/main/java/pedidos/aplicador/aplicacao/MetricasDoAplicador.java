package pedidos.aplicador.aplicacao;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;
import pedidos.contrato.AssinaturaDeRegistro;

/**
 * The one seam through which the applier reports what it did: its applies, whatever path took them,
 * their failures, and the jobs beside them (sweep, retention, status page). In the apply's package,
 * which every feature already depends on; a reconciliation round's counters are the
 * reconciliation's own ({@code Reconciliacao}), so that this package depends on no feature.
 */
@Component
public class MetricasDoAplicador {

  private final MeterRegistry registro;

  public MetricasDoAplicador(MeterRegistry registro) {
    this.registro = registro;
    // At zero from the start: Prometheus' increase() misses the first failure of a series that
    // appears at 1, and the alert rules (docs/observabilidade) must find the name before it.
    for (String origem : new String[] {"kafka", "varredura"}) {
      registro.counter("aplicador.falhas_de_aplicacao", "origem", origem);
    }
    webhookNaoEntregue = contador(WEBHOOKS_NAO_ENTREGUES, "Facts only the store's API told");
    webhookAtrasado =
        contador(WEBHOOKS_ATRASADOS, "Of those, facts whose webhook arrived later after all");
  }

  /** Lost webhooks (docs/observabilidade): the alert's share is these over the applied events. */
  static final String WEBHOOKS_NAO_ENTREGUES = "aplicador.webhooks.nao_entregues";

  static final String WEBHOOKS_ATRASADOS = "aplicador.webhooks.atrasados";

  private final Counter webhookNaoEntregue;
  private final Counter webhookAtrasado;

  private Counter contador(String nome, String descricao) {
    return Counter.builder(nome).description(descricao).register(registro);
  }

  /** A fact read from the API that no webhook delivered, recorded as webhook_nao_entregue. */
  void webhookNaoEntregue() {
    webhookNaoEntregue.increment();
  }

  /** Webhooks that arrived after their fact was recorded as not delivered: late, not lost. */
  void webhookAtrasado(int quantos) {
    webhookAtrasado.increment(quantos);
  }

  /**
   * @param origem {@code kafka}, {@code varredura}, {@code reconciliacao} or {@code replay}
   */
  public void aplicado(String origem, EventoAplicado evento, long nanos) {
    Counter.builder("aplicador.eventos")
        .description("Events applied, by result and by the path that applied them")
        .tag("resultado", evento.resultado().codigo())
        .tag("origem", origem)
        .register(registro)
        .increment();
    Timer.builder("aplicador.aplicacao")
        .description("Time to apply one event, transaction included")
        .tag("origem", origem)
        .publishPercentileHistogram()
        .register(registro)
        .record(nanos, TimeUnit.NANOSECONDS);
    for (var efeito : evento.efeitos()) {
      Counter.builder("aplicador.efeitos")
          .description("Effects recorded in the outbox")
          .tag("efeito", efeito.codigo())
          .register(registro)
          .increment();
    }
  }

  /**
   * An event settled as {@code falha_de_aplicacao}.
   *
   * @param origem {@code kafka} or {@code varredura}
   */
  public void falhaDeAplicacao(String origem) {
    registro.counter("aplicador.falhas_de_aplicacao", "origem", origem).increment();
  }

  /**
   * A record refused because the relay did not sign it: a forgery, or a key mismatch between the
   * relay and the aplicador (after a botched rotation). Either way someone must look.
   *
   * @param origem {@code kafka} or {@code replay}
   */
  public void registroNaoAutenticado(String origem, AssinaturaDeRegistro.Veredicto veredicto) {
    Counter.builder("aplicador.registros_nao_autenticados")
        .description("Records refused for a missing or wrong relay signature")
        .tag("origem", origem)
        .tag("motivo", veredicto.name().toLowerCase(java.util.Locale.ROOT))
        .register(registro)
        .increment();
  }

  public void falhaNaVarredura() {
    registro.counter("aplicador.varredura.falhas").increment();
  }

  /**
   * Rows one retention batch changed.
   *
   * @param tabela {@code webhook_eventos}, {@code webhook_quarentena} or {@code outbox}
   * @param acao {@code redigida}, {@code apagada} or {@code email_removido}
   */
  public void retencao(String tabela, String acao, long linhas) {
    Counter.builder("aplicador.retencao.linhas")
        .description("Rows the retention job changed, by table and by what it did to them")
        .tag("tabela", tabela)
        .tag("acao", acao)
        .register(registro)
        .increment(linhas);
  }

  public void loteDeRetencao(String tabela, long nanos) {
    Timer.builder("aplicador.retencao.lote")
        .description("Time of one retention batch (one transaction)")
        .tag("tabela", tabela)
        .publishPercentileHistogram()
        .register(registro)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** A scheduled retention run that ended, well or in a failure (the next run starts over). */
  public void rodadaDeRetencao(boolean concluida) {
    registro
        .counter("aplicador.retencao.rodadas", "situacao", concluida ? "concluida" : "falha")
        .increment();
  }

  /** One round of the status page's queries; page loads served from its cache do not count. */
  public void rodadaDoPainel() {
    registro.counter("aplicador.painel.rodadas").increment();
  }
}
