package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import pedidos.infra.InfraLocal;
import pedidos.infra.PostgresLocal;
import pedidos.testes.Consultas;
import pedidos.testes.InfraDeTeste;

/**
 * The order's page, the search and the anomalies read the inbox (millions of rows in production)
 * only through indexes: with sequential scans priced out, every scan of a large table in
 * PostgreSQL's plan for each of their queries has an index condition. A query that no index can
 * serve would read a table whole here (a Seq Scan, or its primary key end to end), however small
 * the test tables are.
 */
@Tag("todas-as-versoes-do-postgres")
class ConsultasDoPedidoUsamIndicesTest {

  private static final Pattern PARAMETRO = Pattern.compile("(?<!:):([A-Za-z][A-Za-z0-9]*)");

  private static final Map<String, String> VALORES =
      Map.ofEntries(
          Map.entry("termo", "'ord-1'"),
          Map.entry("pedido", "'ord-1'"),
          Map.entry("limite", "1001"),
          Map.entry("efeitos", "'{liberar_separacao}'"),
          Map.entry("eventos", "'{ev-1}'"),
          Map.entry("desde", "now() - interval '24 hours'"),
          Map.entry("ate", "now()"),
          Map.entry("tipos", "'{regressao_de_terminal,fato_invalido,falha_de_aplicacao}'"),
          Map.entry("passo", "3600"),
          Map.entry("id", "1"),
          Map.entry("lote", "1"),
          Map.entry("cursor", "'ord-1'"),
          Map.entry("quantos", "100"),
          Map.entry("tipo", "'order.paid'"),
          Map.entry("veredicto", "NULL"),
          Map.entry("lista", "'{ord-1,ord-2}'"));

  private static DataSource banco;

  @BeforeAll
  static void infra() {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    InfraDeTeste.prepararUmaVez(postgres);
    banco = postgres.dataSource();
  }

  static Object[][] consultas() {
    return new Object[][] {
      {"busca", ExplicacaoDoPedido.BUSCAR},
      {"eventos do pedido", ExplicacaoDoPedido.EVENTOS},
      {"pedido", ExplicacaoDoPedido.PEDIDO},
      {"efeitos", ExplicacaoDoPedido.EFEITOS},
      {"cartas mortas do pedido", ExplicacaoDoPedido.MORTOS},
      {"acoes do pedido", ExplicacaoDoPedido.ACOES},
      {"anomalias agrupadas", AnomaliasAgrupadas.GRUPOS},
      {"anomalias ao longo do tempo", AnomaliasAgrupadas.AO_LONGO_DO_TEMPO},
      {"ultimas anomalias", AnomaliasAgrupadas.ULTIMAS},
      {"eventos a rederivar", RederivacaoDoPedido.EVENTOS},
      {"fotografia do pedido", RederivacaoDoPedido.FOTOGRAFIA},
      {"quarentena", Retidos.QUARENTENA},
      {"pedidos de uma rederivacao em massa por janela", LotesDeRederivacao.RESOLVER_POR_JANELA},
      {"pedidos de uma rederivacao em massa por lista", LotesDeRederivacao.RESOLVER_POR_LISTA},
      {"fatos de uma rederivacao em massa", LotesDeRederivacao.CONTAR_FATOS},
      {"proximos pedidos do lote", ExecutorDeRederivacoes.PEDIDOS},
    };
  }

  /** The tables that grow with the traffic: each scan of them must be bounded by an index. */
  private static final Pattern VARREDURA_DE_TABELA_GRANDE =
      Pattern.compile(".*Scan.* on (webhook_eventos|pedidos|outbox)\\b.*");

  @ParameterizedTest(name = "{0}")
  @MethodSource("consultas")
  void naoVarreATabela(String nome, String sql) throws SQLException {
    String plano = plano(sql);

    assertThat(plano)
        .as("%s:%n%s", nome, plano)
        .doesNotContain("Seq Scan on operacoes_auditadas")
        .doesNotContain("Seq Scan on publicador_mortos")
        .doesNotContain("Seq Scan on webhook_quarentena");
    assertThat(limitadaPorIndice(plano)).as("%s:%n%s", nome, plano).isTrue();
  }

  @org.junit.jupiter.api.Test
  void umaConsultaSemIndiceReprovaria() throws SQLException {
    // With sequential scans priced out PostgreSQL may read a whole table through its primary key
    // instead: that must fail too, or the check above could not fail.
    String plano = plano("SELECT * FROM webhook_eventos WHERE tipo = 'order.paid'");

    assertThat(limitadaPorIndice(plano)).as(plano).isFalse();
  }

  /**
   * Whether every scan of a large table in the plan has an index condition (an {@code Index Cond}
   * or, for a bitmap scan, a {@code Recheck Cond}), rather than reading the table whole.
   */
  static boolean limitadaPorIndice(String plano) {
    String[] linhas = plano.split("\n");
    for (int i = 0; i < linhas.length; i++) {
      if (!VARREDURA_DE_TABELA_GRANDE.matcher(linhas[i]).matches()) {
        continue;
      }
      int recuo = recuo(linhas[i]);
      boolean comCondicao = false;
      for (int j = i + 1;
          j < linhas.length && recuo(linhas[j]) > recuo && !linhas[j].strip().startsWith("->");
          j++) {
        comCondicao |= linhas[j].contains("Index Cond:") || linhas[j].contains("Recheck Cond:");
      }
      if (!comCondicao) {
        return false;
      }
    }
    return true;
  }

  private static int recuo(String linha) {
    int n = 0;
    while (n < linha.length() && linha.charAt(n) == ' ') {
      n++;
    }
    return n;
  }

  private static String plano(String sql) throws SQLException {
    Matcher parametro = PARAMETRO.matcher(sql);
    StringBuilder literal = new StringBuilder();
    while (parametro.find()) {
      String valor = VALORES.get(parametro.group(1));
      assertThat(valor).as("a value for :%s", parametro.group(1)).isNotNull();
      parametro.appendReplacement(literal, Matcher.quoteReplacement(valor));
    }
    parametro.appendTail(literal);
    return Consultas.de(banco).planoSemVarreduraSequencial(literal.toString());
  }
}
