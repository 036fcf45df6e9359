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
        .append(ok() ? "CONVERGIU" : "DIVERGIU")
        .append(" após ")
        .append(esperaEmMs)
        .append(" ms\n");
    texto.append("pedidos: ").append(pedidos).append('\n');
    if (entrega != null) {
      texto.append(
          "eventos: %d, enviados %d, duplicatas enviadas %d, perdidos (nunca entregues) %d%n"
              .formatted(
                  entrega.eventos(),
                  entrega.eventosEnviados(),
                  entrega.duplicatasEnviadas(),
                  entrega.perdidos()));
      texto.append(
          "requisições: %d (%d reenvios, %d falhas), confirmados %d, recusados %d, sem confirmação %d, em %d ms%n"
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
        "API: %d vistas servidas em %d páginas; pedidos com fato da API %d, reconciliados %d%n"
            .formatted(vistasServidas, paginasServidas, pedidosComFatoDaApi, pedidosReconciliados));
    texto.append("resultados na caixa de entrada: ").append(new TreeMap<>(resultados)).append('\n');
    texto.append("efeitos no outbox: ").append(new TreeMap<>(efeitosNoOutbox)).append('\n');
    if (separacao != null) {
      texto.append(
          "separação: %d mensagens, %d efeitos, %d duplicatas descartadas, %d sem idempotency-key, %d ilegíveis%n"
              .formatted(
                  separacao.mensagens(),
                  separacao.efeitos(),
                  separacao.duplicadas(),
                  separacao.semCabecalho(),
                  separacao.ilegiveis()));
    } else {
      texto.append("separação: não verificada\n");
    }
    if (!ok()) {
      texto.append(divergencias.size()).append(" divergências:\n");
      divergencias.stream()
          .limit(DIVERGENCIAS_IMPRESSAS)
          .forEach(divergencia -> texto.append("  - ").append(divergencia).append('\n'));
      if (divergencias.size() > DIVERGENCIAS_IMPRESSAS) {
        texto
            .append("  ... e mais ")
            .append(divergencias.size() - DIVERGENCIAS_IMPRESSAS)
            .append('\n');
      }
    }
    return texto.toString();
  }
}
