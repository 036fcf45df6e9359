package pedidos.aplicador.aplicacao;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import pedidos.dominio.Efeito;
import pedidos.dominio.Resultado;

/**
 * {@code bench/ponta-a-ponta-aplicar.sql}, pgbench's copy of one apply by the listener, is made
 * from the applier's own statements, so it cannot drift from them: every named parameter becomes
 * the pgbench variable or the literal that the benchmark's events give it, and nothing else
 * changes. A changed statement fails this test until the file is generated again:
 *
 * <pre>
 * mvn -q -B -pl :aplicador -am test -Dtest=SqlDaBancadaTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dbancada.regravar=true
 * </pre>
 */
class SqlDaBancadaTest {

  private static final Path ARQUIVO = Path.of("..", "bench", "ponta-a-ponta-aplicar.sql");

  /** A named parameter as Spring reads it: {@code :nome}, not a {@code ::cast}. */
  private static final Pattern PARAMETRO = Pattern.compile("(?<!:):([A-Za-z][A-Za-z0-9]*)");

  private static final String CABECALHO =
      """
      -- pgbench's copy of one apply by the applier's Kafka listener (OuvinteDeEventos ->
      -- AplicadorDeEventos.guardarEAplicarNaTransacao), statement for statement, in the same order,
      -- over an event already in the inbox and not applied yet. What the Java code computes between
      -- statements (reading the record, the policy, the new state and its effects) is precomputed per
      -- event in bancada_fila by bench/ponta-a-ponta.sh.
      --
      -- Generated from the applier's statements (CaixaDeEntrada, LeitorDoPedido,
      -- GravadorDaAplicacao) by aplicador's SqlDaBancadaTest, which fails when they differ: do not
      -- edit by hand; run the test with -Dbancada.regravar=true to write it again.
      --
      -- Round trips, as the applier makes them: one pipeline (BEGIN, the insert, the lock, the read;
      -- pgjdbc sends a multi-statement PreparedStatement the same way), the write, the commit. pgbench
      -- pays one more, fetching its event (the applier gets it from Kafka).
      SELECT evento_id AS ev, recurso_id AS ped, tipo, payload, recebido_em AS recebido, status AS st,
             versao, efeito
        FROM bancada_fila WHERE n = (SELECT nextval('bancada_seq')) \\gset
      """;

  @Test
  void aBancadaRodaAsDeclaracoesDoAplicador() throws IOException {
    String esperado = gerar();
    if (Boolean.getBoolean("bancada.regravar")) {
      Files.writeString(ARQUIVO, esperado, StandardCharsets.UTF_8);
    }

    assertThat(Files.readString(ARQUIVO, StandardCharsets.UTF_8))
        .as("%s, generated from the applier's statements (see this test's comment)", ARQUIVO)
        .isEqualTo(esperado);
  }

  @Test
  void umParametroNovoSemValorNaBancadaEUmErro() {
    assertThatIllegalStateException()
        .isThrownBy(() -> substituir("SELECT :ev, :novo, x::text", Map.of("ev", ":ev")))
        .withMessageContaining("novo");
    assertThat(substituir("SELECT :a::jsonb, CAST(:b AS text[])", Map.of("a", ":x", "b", "'{}'")))
        .isEqualTo("SELECT :x::jsonb, CAST('{}' AS text[])");
  }

  static String gerar() {
    var guardar = new LinkedHashMap<String, String>();
    guardar.put("eventoId", ":ev");
    guardar.put("recursoId", ":ped");
    guardar.put("tipo", ":tipo");
    guardar.put("payload", ":payload");
    guardar.put("recebidoEm", ":recebido");

    var travar = new LinkedHashMap<String, String>();
    travar.put("milissegundos", "'5000'"); // aplicador.espera-por-lock's default
    travar.put("eventoId", ":ev");

    var ler = new LinkedHashMap<String, String>();
    ler.put("eventoId", ":ev");
    ler.put("falhaDeAplicacao", literal(Resultado.FALHA_DE_APLICACAO.codigo()));

    // The benchmark's events: every order's total and email are the same; an event releases
    // picking when bancada_fila says so; none corrects another's result.
    var gravar = new LinkedHashMap<String, String>();
    gravar.put("pedidoId", ":ped");
    gravar.put("status", ":st");
    gravar.put("total", "1990");
    gravar.put("email", "'cliente@example.com'");
    gravar.put("versao", ":versao");
    gravar.put(
        "efeitos",
        "CASE WHEN :efeito = 1 THEN '{%s}' ELSE '{}' END"
            .formatted(Efeito.LIBERAR_SEPARACAO.codigo()));
    gravar.put("eventoId", ":ev");
    gravar.put("resultado", literal(Resultado.APLICADO.codigo()));
    gravar.put("corrigidos", "'{}'");
    gravar.put("veredictos", "'{}'");
    // Where the record was read: the benchmark's events all come from one place.
    gravar.put("kafkaParticao", "0");
    gravar.put("kafkaOffset", "0");

    return CABECALHO
        + "\\startpipeline\n"
        + "BEGIN;\n"
        + declaracao(CaixaDeEntrada.GUARDAR_SE_AUSENTE, guardar)
        + declaracao(LeitorDoPedido.TRAVAR_PEDIDO, travar)
        + declaracao(LeitorDoPedido.LER_PEDIDO, ler)
        + "\\endpipeline\n"
        + declaracao(GravadorDaAplicacao.GRAVAR_APLICACAO, gravar)
        + "END;\n";
  }

  private static String declaracao(String sql, Map<String, String> valores) {
    return substituir(sql.stripTrailing(), valores) + ";\n";
  }

  /** Every named parameter replaced by its value; one without a value is an error. */
  static String substituir(String sql, Map<String, String> valores) {
    var semValor = new TreeSet<String>();
    Matcher parametro = PARAMETRO.matcher(sql);
    var resultado = new StringBuilder();
    while (parametro.find()) {
      String valor = valores.get(parametro.group(1));
      if (valor == null) {
        semValor.add(parametro.group(1));
        valor = parametro.group();
      }
      parametro.appendReplacement(resultado, Matcher.quoteReplacement(valor));
    }
    parametro.appendTail(resultado);
    if (!semValor.isEmpty()) {
      throw new IllegalStateException(
          "no value in the benchmark for the parameter(s) " + semValor + " of:\n" + sql);
    }
    return resultado.toString();
  }

  private static String literal(String texto) {
    return "'" + texto.replace("'", "''") + "'";
  }
}
