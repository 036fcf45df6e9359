package pedidos.receptor;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The warm-up's writes ({@link AquecimentoDoReceptor}): its made-up events are stored by the same
 * code as real ones ({@link GravacaoDeLote}), in a transaction that is rolled back, so nothing
 * reaches the table, the WAL's committed changes or the relay. What they would count goes to an
 * observer of their own, on a registry of the same kind as the real one that nothing exports: the
 * warm-up runs the metrics' code too, and no metric shows it.
 */
@Component
final class EnsaioDaGravacao {

  private final ObservadorDoReceptor observador =
      new ObservadorDoReceptor(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  private final GravacaoDeLote gravacao;
  private final TransactionTemplate transacao;

  EnsaioDaGravacao(CaixaDeEntrada caixa, TransactionTemplate transacao) {
    this.gravacao = new GravacaoDeLote(caixa, observador);
    this.transacao = transacao;
  }

  /** The warm-up's own observer: what it counts, no one sees. */
  ObservadorDoReceptor observador() {
    return observador;
  }

  /** Completes every pending event of the batch, as {@link GravacaoDeLote#gravar}; never throws. */
  void gravar(List<Pendente> lote) {
    try {
      transacao.executeWithoutResult(
          status -> {
            status.setRollbackOnly();
            gravacao.gravar(lote);
          });
    } catch (RuntimeException e) {
      Recusa.BancoIndisponivel recusa = new Recusa.BancoIndisponivel("A warm-up write failed.", e);
      lote.stream().filter(p -> !p.concluido()).forEach(p -> p.falhar(recusa));
    }
  }
}
