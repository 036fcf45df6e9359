package pedidos.aplicador.apagamento;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.aplicador.ContextoDoAplicador;
import pedidos.aplicador.LinhaDeComandoDeTeste;
import pedidos.aplicador.LinhaDeComandoDeTeste.Execucao;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.dominio.Status;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;

/**
 * The erasure command against the real PostgreSQL, as an operator runs it: the owner role, the
 * migration step's variables. The customer's email goes from every table, a customer whose address
 * merely contains it keeps hers, the facts still fold, and a second run changes nothing.
 */
@Tag("todas-as-versoes-do-postgres")
class ApagamentoDeClienteTest extends ContextoDoAplicador {

  @Autowired AplicadorDeEventos aplicador;
  @Autowired JdbcClient jdbc;

  private final String u = UUID.randomUUID().toString().substring(0, 8);
  private final String p = "apg-" + u + "-";
  // The customer, and one whose address ends with hers: "mariana.X@loja.com" holds
  // "ana.X@loja.com".
  private final String ana = "ana." + u + "@loja.com";
  private final String mariana = "mariana." + u + "@loja.com";

  @Test
  void apagaOEmailDeTodaParteUmaVezSoEOsFatosSeguemDobrando() {
    String pedidoDaAna = p + "ana";
    String pedidoDaMariana = p + "mariana";
    String criado =
        gravar(
            "criado",
            pedidoDaAna,
            "order.created",
            1,
            ana,
            ", \"notes\": \"write to " + ana.toUpperCase() + ".\"");
    gravar("pago", pedidoDaAna, "order.paid", 2, ana, "");
    gravar(
        "mariana",
        pedidoDaMariana,
        "order.paid",
        1,
        mariana,
        ", \"notes\": \"not " + ana + ".br, not x" + ana + "\"");
    for (String evento : List.of("criado", "pago", "mariana")) {
      aplicador.aplicar(p + evento, ModoDeAplicacao.NORMAL);
    }
    JdbcClient dono = dono();
    // A body the receptor could not read, with bytes that are not UTF-8 around the address.
    byte[] corpo =
        concatenar(
            new byte[] {(byte) 0xff, (byte) 0xfe},
            ("{\"id\": \"" + p + "q\", \"email\": \"" + ana + "\"")
                .getBytes(StandardCharsets.UTF_8),
            new byte[] {(byte) 0xc3});
    dono.sql(
            "INSERT INTO webhook_quarentena (corpo, motivo, evento_id) VALUES (?, 'nao e JSON', ?)")
        .params(corpo, p + "q")
        .update();
    // The relay's dead letters mask emails: the masked form is this customer's only on her rows.
    String mascarado = "a***@loja.com";
    inserirMorto(
        "webhook_eventos", "{\"evento_id\": \"" + p + "pago\"}", "record too large: " + mascarado);
    inserirMorto(
        "webhook_eventos",
        "{\"evento_id\": \"" + p + "mariana\"}",
        "record too large: " + mascarado);
    inserirMorto(
        "outbox",
        "{\"pedido_id\": \"" + p + "outro\", \"efeito\": \"x\"}",
        "unmasked by mistake: " + ana);
    var marianaAntes = linhasDe(pedidoDaMariana);

    Execucao primeira = apagar("--email=" + ana.toUpperCase());

    assertThat(primeira.codigo()).isZero();
    assertThat(primeira.saida())
        .contains("erased A***@LOJA.COM from 1 order(s)")
        .contains("pedidos: 1 row(s)")
        .contains("webhook_eventos: 2 payload(s)")
        .contains("outbox: 1 snapshot(s)")
        .contains("webhook_quarentena: 1 body(ies)")
        .contains("publicador_mortos: 2 reason(s)")
        .contains("Kafka's records cannot be edited")
        .doesNotContain(ana)
        .doesNotContain(ana.toUpperCase());
    assertThat(texto("SELECT cliente_email FROM pedidos WHERE id = ?", pedidoDaAna))
        .isEqualTo(ApagamentoDeCliente.ANONIMO);
    assertThat(texto("SELECT cliente_email FROM outbox WHERE pedido_id = ?", pedidoDaAna))
        .isEqualTo(ApagamentoDeCliente.ANONIMO);
    for (String evento : List.of("criado", "pago")) {
      String payload =
          texto("SELECT payload::text FROM webhook_eventos WHERE evento_id = ?", p + evento);
      assertThat(payload.toLowerCase()).doesNotContain(ana).contains(ApagamentoDeCliente.ANONIMO);
    }
    assertThat(texto("SELECT payload::text FROM webhook_eventos WHERE evento_id = ?", p + "criado"))
        .contains("write to " + ApagamentoDeCliente.ANONIMO + ".");
    byte[] quarentena =
        dono.sql("SELECT corpo FROM webhook_quarentena WHERE evento_id = ?")
            .param(p + "q")
            .query(byte[].class)
            .single();
    assertThat(quarentena)
        .isEqualTo(
            concatenar(
                new byte[] {(byte) 0xff, (byte) 0xfe},
                ("{\"id\": \"" + p + "q\", \"email\": \"" + ApagamentoDeCliente.ANONIMO + "\"")
                    .getBytes(StandardCharsets.UTF_8),
                new byte[] {(byte) 0xc3}));
    assertThat(motivoDoMorto(p + "pago")).isEqualTo("record too large: a***@anonimizado.invalid");
    assertThat(motivoDoMorto(p + "mariana"))
        .as("another customer's masked form")
        .isEqualTo("record too large: " + mascarado);
    assertThat(
            dono.sql("SELECT motivo FROM publicador_mortos WHERE chave ->> 'pedido_id' = ?")
                .param(p + "outro")
                .query(String.class)
                .single())
        .isEqualTo("unmasked by mistake: " + ApagamentoDeCliente.ANONIMO);
    assertThat(linhasDe(pedidoDaMariana))
        .as("the customer whose address holds hers")
        .isEqualTo(marianaAntes);

    // The store redelivers the original body: still a duplicate, by the digest kept.
    assertThat(
            jdbc.sql(
                    "SELECT mesmo_corpo(payload, payload_sha256, CAST(? AS jsonb))"
                        + " FROM webhook_eventos WHERE evento_id = ?")
                .params(criado, p + "criado")
                .query(Boolean.class)
                .single())
        .isTrue();
    // The facts still fold: a forced re-apply leaves the order as the erasure left it.
    aplicador.aplicar(p + "pago", ModoDeAplicacao.FORCADO);
    assertThat(texto("SELECT cliente_email FROM pedidos WHERE id = ?", pedidoDaAna))
        .isEqualTo(ApagamentoDeCliente.ANONIMO);
    assertThat(StatusDoPedido.atual(jdbc, pedidoDaAna)).isEqualTo(Status.PAGO.codigo());
    var tudoDepois = linhasDe(pedidoDaAna);

    Execucao segunda = apagar("--email=" + ana);

    assertThat(segunda.codigo()).isZero();
    assertThat(segunda.saida())
        .contains("nothing to erase: no row holds a***@loja.com")
        .doesNotContain(ana);
    assertThat(linhasDe(pedidoDaAna)).as("a second run changes nothing").isEqualTo(tudoDepois);
  }

  @Test
  void recusaUsoErradoSemTocarEmNada() {
    assertThat(apagar().codigo()).isEqualTo(2);
    assertThat(apagar().erro()).contains("Missing required option: '--email=ADDRESS'");
    assertThat(apagar("--email=sem-arroba").codigo()).isEqualTo(2);
    assertThat(apagar("--email=sem-arroba").erro())
        .contains("Invalid value for option '--email'")
        .contains("not an email address");
    assertThat(apagar("--email=" + ApagamentoDeCliente.ANONIMO).codigo()).isEqualTo(2);
    assertThat(apagar("--email=a@b.c", "--email=d@e.f").codigo()).isEqualTo(2);
    Map<String, String> semDono = ambiente();
    semDono.remove("SPRING_FLYWAY_USER");
    var execucao = LinhaDeComandoDeTeste.executar(semDono, "apagar-cliente", "--email=a@b.c");
    assertThat(execucao.codigo()).isEqualTo(2);
    assertThat(execucao.erro()).contains("needs SPRING_FLYWAY_URL", "SPRING_FLYWAY_USER");
  }

  @Test
  void oPadraoCasaOEnderecoInteiroSemDistinguirMaiusculas() {
    var padrao = ApagamentoDeCliente.padraoNosBytes("ana@loja.com");
    assertThat(padrao.matcher("x ANA@Loja.com.").find()).isTrue();
    assertThat(padrao.matcher("\"ana@loja.com\"").find()).isTrue();
    assertThat(padrao.matcher("mariana@loja.com").find()).isFalse();
    assertThat(padrao.matcher("ana@loja.com.br").find()).isFalse();
    assertThat(padrao.matcher("ana@loja.community").find()).isFalse();
    assertThat(padrao.matcher("ana.b@loja.com").find()).isFalse();
    String doBanco = ApagamentoDeCliente.padrao("ana+x@loja.com");
    for (String[] caso :
        new String[][] {
          {"x ANA+X@Loja.com.", "true"},
          {"mariana+x@loja.com", "false"},
          {"ana+x@loja.com.br", "false"},
          {"ana+x@loja.com-br", "false"},
          {"<ana+x@loja.com>", "true"}
        }) {
      assertThat(jdbc.sql("SELECT ? ~* ?").params(caso[0], doBanco).query(Boolean.class).single())
          .as(caso[0])
          .isEqualTo(Boolean.parseBoolean(caso[1]));
    }
  }

  // --- helpers

  private Execucao apagar(String... argumentos) {
    String[] comando = new String[argumentos.length + 1];
    comando[0] = "apagar-cliente";
    System.arraycopy(argumentos, 0, comando, 1, argumentos.length);
    return LinhaDeComandoDeTeste.executar(ambiente(), comando);
  }

  /** As the migration step is given: the owner role. */
  private static Map<String, String> ambiente() {
    Map<String, String> ambiente = new HashMap<>();
    ambiente.put("SPRING_DATASOURCE_URL", InfraLocal.compartilhada().postgres().jdbcUrl());
    ambiente.put("SPRING_FLYWAY_USER", PapelNoBanco.DONO.nome());
    ambiente.put("SPRING_FLYWAY_PASSWORD", PapelNoBanco.DONO.senhaLocal());
    return ambiente;
  }

  private static JdbcClient dono() {
    return JdbcClient.create(InfraLocal.compartilhada().postgres().dataSource(PapelNoBanco.DONO));
  }

  private String gravar(
      String evento, String pedido, String tipo, int sequencia, String email, String extra) {
    String payload =
        """
        {"id": "%s", "type": "%s", "sequence": %d, "data": {"id": "%s", "total_cents": 990,
         "customer_email": "%s"%s}}
        """
            .formatted(p + evento, tipo, sequencia, pedido, email, extra)
            .strip();
    jdbc.sql(
            "INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)"
                + " VALUES (?, ?, ?, ?::jsonb)")
        .params(p + evento, pedido, tipo, payload)
        .update();
    return payload;
  }

  private void inserirMorto(String tabela, String chave, String motivo) {
    dono()
        .sql(
            "INSERT INTO publicador_mortos (tabela, chave, lsn, motivo)"
                + " VALUES (?, ?::jsonb, NULL, ?)")
        .params(tabela, chave, motivo)
        .update();
  }

  private String motivoDoMorto(String eventoId) {
    return dono()
        .sql("SELECT motivo FROM publicador_mortos WHERE chave ->> 'evento_id' = ?")
        .param(eventoId)
        .query(String.class)
        .single();
  }

  private String texto(String sql, Object parametro) {
    return jdbc.sql(sql).param(parametro).query(String.class).single();
  }

  /** Every row of the order and its effects, as text. */
  private List<Map<String, Object>> linhasDe(String pedido) {
    return jdbc.sql(
            """
            SELECT 'pedidos' AS tabela, id AS chave, cliente_email AS valor FROM pedidos WHERE id = :p
            UNION ALL
            SELECT 'evento', evento_id, payload::text || coalesce(motivo, '')
              FROM webhook_eventos WHERE recurso_id = :p
            UNION ALL
            SELECT 'outbox', efeito, cliente_email FROM outbox WHERE pedido_id = :p
            ORDER BY 1, 2
            """)
        .param("p", pedido)
        .query()
        .listOfRows();
  }

  private static byte[] concatenar(byte[]... partes) {
    var saida = new ByteArrayOutputStream();
    for (byte[] parte : partes) {
      saida.writeBytes(parte);
    }
    return saida.toByteArray();
  }
}
