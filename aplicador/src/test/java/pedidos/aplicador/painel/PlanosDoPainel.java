package pedidos.aplicador.painel;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import pedidos.aplicador.entrega.PausaDaEntrega;

/**
 * The status page's queries as PostgreSQL plans them, with a verdict on how they read the two large
 * tables: an unbounded Seq Scan of webhook_eventos or outbox (one with no Limit above it) reads the
 * whole table at every page load. A query added to the page's classes belongs in {@link
 * #CONSULTAS}.
 */
final class PlanosDoPainel {

  static final String VARREDURA_INTEIRA = "UNBOUNDED SEQ SCAN";

  private static final Pattern PARAMETRO = Pattern.compile("(?<!:):([a-zA-Z][a-zA-Z0-9]*)");
  private static final Pattern TABELA_GRANDE =
      Pattern.compile("Seq Scan on (webhook_eventos|outbox)\\b");

  /** The literal each named parameter takes in the plans. */
  private static final Map<String, String> VALORES =
      Map.ofEntries(
          Map.entry("nome", "'pedidos_loja'"),
          Map.entry("desde", "now() - interval '3 hours'"),
          Map.entry("ate", "now()"),
          Map.entry("minuto", "date_trunc('minute', now())"),
          Map.entry("agora", "now()"),
          Map.entry("inicio", "date_trunc('minute', now()) - interval '3 hours'"),
          Map.entry("limite", "" + FluxoPorMinuto.PENDENTES_CONTADOS_ATE),
          Map.entry("guarda", "now() - interval '7 days'"),
          Map.entry("trava", "" + FluxoPorMinuto.TRAVA_DOS_RECEBIDOS),
          Map.entry("aplicados", "1"),
          Map.entry("aplicacao", "'{0,1}'"));

  record Consulta(String nome, String sql) {}

  static final List<Consulta> CONSULTAS =
      List.of(
          new Consulta("PainelDeOperacoes.CAIXA_DE_ENTRADA", PainelDeOperacoes.CAIXA_DE_ENTRADA),
          new Consulta(
              "PainelDeOperacoes.APLICADOS_RECENTES", PainelDeOperacoes.APLICADOS_RECENTES),
          new Consulta(
              "PainelDeOperacoes.TOTAL(webhook_eventos)",
              PainelDeOperacoes.TOTAL.formatted(
                  "webhook_eventos", PainelDeOperacoes.CONTAGEM_EXATA_ATE + 1)),
          new Consulta(
              "PainelDeOperacoes.TOTAL(outbox)",
              PainelDeOperacoes.TOTAL.formatted(
                  "outbox", PainelDeOperacoes.CONTAGEM_EXATA_ATE + 1)),
          new Consulta("PainelDeOperacoes.OUTBOX", PainelDeOperacoes.OUTBOX),
          new Consulta("PainelDeOperacoes.RESULTADOS", PainelDeOperacoes.RESULTADOS),
          new Consulta("PainelDeOperacoes.ANOMALIAS", PainelDeOperacoes.ANOMALIAS),
          new Consulta("PainelDeOperacoes.CURSOR", PainelDeOperacoes.CURSOR),
          new Consulta("FluxoDoPainel.MINUTOS", FluxoDoPainel.MINUTOS),
          new Consulta("FluxoPorMinuto.AMOSTRAR_PENDENTES", FluxoPorMinuto.AMOSTRAR_PENDENTES),
          new Consulta("FluxoPorMinuto.CONTAR_RECEBIDOS", FluxoPorMinuto.CONTAR_RECEBIDOS),
          new Consulta("PausaDaEntrega.LER", PausaDaEntrega.LER),
          new Consulta("PausaDaEntrega.PENDENCIAS", PausaDaEntrega.PENDENCIAS));

  private PlanosDoPainel() {}

  /**
   * One line per query: its name, its running time when {@code executar}, the scans of the large
   * tables in its plan, and {@link #VARREDURA_INTEIRA} for each unbounded one. Writes are rolled
   * back. Without {@code executar}, sequential scans are disabled: the plan then shows a Seq Scan
   * only where no index can serve the query, whatever the tables' sizes (a test's tables are small,
   * and on small tables a Seq Scan is the right choice).
   */
  static List<String> explicar(DataSource banco, boolean executar) throws SQLException {
    List<String> linhas = new ArrayList<>();
    try (Connection conexao = banco.getConnection();
        Statement comando = conexao.createStatement()) {
      conexao.setAutoCommit(false);
      try {
        if (!executar) {
          comando.execute("SET LOCAL enable_seqscan = off");
        }
        for (Consulta consulta : CONSULTAS) {
          List<String> plano = new ArrayList<>();
          try (ResultSet rs =
              comando.executeQuery(
                  (executar ? "EXPLAIN (ANALYZE, BUFFERS) " : "EXPLAIN ")
                      + comValores(consulta.sql()))) {
            while (rs.next()) {
              plano.add(rs.getString(1));
            }
          }
          linhas.add(consulta.nome() + ": " + veredito(plano));
        }
      } finally {
        conexao.rollback();
      }
    }
    return linhas;
  }

  static String comValores(String sql) {
    Matcher m = PARAMETRO.matcher(sql);
    StringBuilder saida = new StringBuilder();
    while (m.find()) {
      String valor = VALORES.get(m.group(1));
      if (valor == null) {
        throw new IllegalArgumentException("no value for :" + m.group(1) + " in " + sql);
      }
      m.appendReplacement(saida, Matcher.quoteReplacement("(" + valor + ")"));
    }
    return m.appendTail(saida).toString();
  }

  /** The plan's scans of the large tables, each marked unbounded when no Limit is above it. */
  static String veredito(List<String> plano) {
    List<String> achados = new ArrayList<>();
    // (indentation, node) of the nodes above the current line, nearest last.
    Deque<Object[]> acima = new ArrayDeque<>();
    String tempo = "";
    for (String linha : plano) {
      if (linha.startsWith("Execution Time")) {
        tempo = linha.replace("Execution Time: ", "") + "; ";
      }
      int seta = linha.indexOf("->");
      boolean raiz = acima.isEmpty() && !linha.isBlank() && !linha.startsWith(" ");
      if (seta < 0 && !raiz) {
        continue;
      }
      int recuo = raiz ? 0 : seta;
      String no = raiz ? linha : linha.substring(seta + 2).strip();
      while (!acima.isEmpty() && (int) acima.peekLast()[0] >= recuo) {
        acima.removeLast();
      }
      String tipo = no.replaceAll("\\s+\\(cost=.*", "");
      if (tipo.matches(".*(Scan|scan).*(webhook_eventos|outbox|fluxo_por_minuto).*")) {
        boolean limitado =
            acima.stream().anyMatch(acimaDele -> ((String) acimaDele[1]).startsWith("Limit"));
        boolean inteira = TABELA_GRANDE.matcher(tipo).find() && !limitado;
        achados.add(
            tipo + (inteira ? " " + VARREDURA_INTEIRA : limitado ? " (under a Limit)" : ""));
      }
      acima.addLast(new Object[] {recuo, no});
    }
    return tempo + (achados.isEmpty() ? "no scan of the large tables" : String.join("; ", achados));
  }
}
