package pedidos.simulador;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The result of a run: what was sent, what the system made of it, and every divergence from the
 * truth. {@link #ok()} is the exit status.
 *
 * @param entrega what the deliverer did
 * @param vistasServidas distinct order views the orders API served
 * @param paginasServidas pages the orders API answered
 * @param pedidosComFatoDaApi orders for which the applier stored a fact read from the API
 * @param pedidosReconciliados orders where such a fact was applied (it moved the order)
 * @param resultados the inbox's {@code resultado} counts for this run's orders (anomalies included:
 *     {@code evento_antigo}, {@code regressao_de_terminal}...)
 * @param efeitosNoOutbox outbox rows by effect
 * @param separacao what the picking system received; {@code null} when not checked
 * @param divergencias empty when the system converged to the truth
 * @param esperaEmMs how long the verification waited
 */
public record Relatorio(
    int pedidos,
    ResumoDaEntrega entrega,
    long vistasServidas,
    long paginasServidas,
    long pedidosComFatoDaApi,
    long pedidosReconciliados,
    Map<String, Long> resultados,
    Map<String, Long> efeitosNoOutbox,
    Separacao separacao,
    List<String> divergencias,
    long esperaEmMs) {

  private static final int DIVERGENCIAS_IMPRESSAS = 50;

  public Relatorio {
    resultados = Map.copyOf(resultados);
    efeitosNoOutbox = Map.copyOf(efeitosNoOutbox);
    divergencias = List.copyOf(divergencias);
  }

  /**
   * @param mensagens messages of this run's orders
   * @param efeitos distinct idempotency keys
   * @param duplicadas messages dropped as already seen
   * @param semCabecalho messages without {@code idempotency-key}
   * @param ilegiveis messages whose value could not be read
   */
  public record Separacao(
      long mensagens, long efeitos, long duplicadas, long semCabecalho, long ilegiveis) {}

  public boolean ok() {
    return divergencias.isEmpty();
  }

  public String texto() {
    StringBuilder texto = new StringBuilder();
    texto
        .append(ok() ? "CONVERGED" : "DIVERGED")
        .append(" after ")
        .append(esperaEmMs)
        .append(" ms\n");
    texto.append("orders: ").append(pedidos).append('\n');
    if (entrega != null) {
      texto.append(
          "events: %d, sent %d, duplicates sent %d, lost (never delivered) %d%n"
              .formatted(
                  entrega.eventos(),
                  entrega.eventosEnviados(),
                  entrega.duplicatasEnviadas(),
                  entrega.perdidos()));
      texto.append(
          "requests: %d (%d resent, %d failed), confirmed %d, refused %d, unconfirmed %d, in %d ms%n"
              .formatted(
                  entrega.envios(),
                  entrega.reenvios(),
                  entrega.falhas(),
                  entrega.confirmados(),
                  entrega.recusados(),
                  entrega.semConfirmacao(),
                  entrega.duracaoEmMs()));
    }
    texto.append(
        "API: %d order views served in %d pages; orders with an API fact %d, reconciled %d%n"
            .formatted(vistasServidas, paginasServidas, pedidosComFatoDaApi, pedidosReconciliados));
    texto.append("inbox results: ").append(new TreeMap<>(resultados)).append('\n');
    texto.append("outbox effects: ").append(new TreeMap<>(efeitosNoOutbox)).append('\n');
    if (separacao != null) {
      texto.append(
          "picking (separação): %d messages, %d effects, %d duplicates dropped, %d without idempotency-key, %d unreadable%n"
              .formatted(
                  separacao.mensagens(),
                  separacao.efeitos(),
                  separacao.duplicadas(),
                  separacao.semCabecalho(),
                  separacao.ilegiveis()));
    } else {
      texto.append("picking (separação): not checked\n");
    }
    if (!ok()) {
      texto.append(divergencias.size()).append(" divergences:\n");
      divergencias.stream()
          .limit(DIVERGENCIAS_IMPRESSAS)
          .forEach(divergencia -> texto.append("  - ").append(divergencia).append('\n'));
      if (divergencias.size() > DIVERGENCIAS_IMPRESSAS) {
        texto
            .append("  ... and ")
            .append(divergencias.size() - DIVERGENCIAS_IMPRESSAS)
            .append(" more\n");
      }
    }
    return texto.toString();
  }
}
