package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pedidos.aplicador.LinhaDeComandoDeTeste;
import pedidos.aplicador.LinhaDeComandoDeTeste.Execucao;
import pedidos.infra.InfraLocal;
import pedidos.infra.PapelNoBanco;
import pedidos.infra.PostgresLocal;
import tools.jackson.databind.JsonNode;

/**
 * Issue 29: operators pause and resume delivery to the picking system from the status page and from
 * the command line, authenticated and audited; the page's banner says it is paused on purpose, by
 * whom and why, with the backlog and its oldest effect's age, in a real headless browser. What the
 * relay does with the state is {@code publicador-outbox}'s PausaDaEntregaTest.
 */
class PausaDaEntregaTest extends ContextoWebDoPainel {

  private final String pedido = "ord-pausa-" + UUID.randomUUID().toString().substring(0, 8);
  private final String motivo = "warehouse maintenance " + pedido;

  @AfterEach
  void aoVivoDeNovo() {
    comoAdministrador()
        .sql(
            "UPDATE entrega_dos_efeitos SET pausada = false, pausada_em = NULL,"
                + " pausada_por = NULL, motivo = NULL, retomada_em = NULL, retomada_por = NULL,"
                + " esvaziada_em = NULL")
        .update();
    comoAdministrador().sql("DELETE FROM outbox WHERE pedido_id = ?").param(pedido).update();
  }

  @Test
  void pausarERetomarPelaPaginaSaoAcoesAuditadasEOBannerMostraOAcumulado(@TempDir Path perfil)
      throws Exception {
    // Refused before anything changes, and audited: a forged cross-site request, no reason.
    assertThat(
            enviar("/status/acoes/pausar-entrega?motivo=x", USUARIO, SENHA, false, null)
                .statusCode())
        .isEqualTo(403);
    HttpResponse<String> semMotivo = post("/status/acoes/pausar-entrega");
    assertThat(semMotivo.statusCode()).isEqualTo(400);
    assertThat(semMotivo.body()).contains("recusado", "say why");
    assertThat(enviar("/status/acoes/pausar-entrega?motivo=x", null, null, true, null).statusCode())
        .isEqualTo(401);
    assertThat(estado().path("modo").stringValue()).isEqualTo("ao_vivo");

    JsonNode pausada = json.readTree(post(pausar()).body());
    assertThat(pausada.path("resultado").stringValue()).isEqualTo("feito");
    JsonNode outraVez = json.readTree(post(pausar()).body());
    assertThat(outraVez.path("resultado").stringValue()).isEqualTo("nada_a_fazer");
    assertThat(outraVez.path("detalhe").stringValue()).contains("already paused", USUARIO, motivo);

    // An effect born ten minutes ago that the picking system has not received.
    comoAdministrador()
        .sql(
            "INSERT INTO outbox (pedido_id, efeito, status, total_centavos, criado_em)"
                + " VALUES (?, 'liberar_separacao', 'pago', 100, now() - interval '10 minutes')")
        .param(pedido)
        .update();
    JsonNode estado = estado();
    assertThat(estado.path("modo").stringValue()).isEqualTo("pausada");
    assertThat(estado.path("pausadaPor").stringValue()).isEqualTo(USUARIO);
    assertThat(estado.path("motivo").stringValue()).isEqualTo(motivo);
    assertThat(estado.path("pendentes").longValue()).isPositive();
    assertThat(estado.path("idadeDoMaisAntigo").doubleValue()).isGreaterThanOrEqualTo(600);

    String dom = ChromiumSemCabeca.renderizar(comLogin("/status.html"), perfil);
    assertThat(dom)
        .contains("id=\"entrega\" class=\"pausada\"")
        .contains("<strong id=\"entrega-modo\">PAUSED</strong>")
        .contains("paused on purpose")
        .contains("by " + USUARIO)
        .contains("<span id=\"entrega-motivo\">" + motivo + "</span>")
        .containsPattern("id=\"entrega-pendentes\">[1-9][0-9]*<")
        .containsPattern("id=\"entrega-idade\">([1-9][0-9]* min|[0-9.]+ h)<")
        .contains("Resume delivery");

    JsonNode retomada = json.readTree(post("/status/acoes/retomar-entrega").body());
    assertThat(retomada.path("resultado").stringValue()).isEqualTo("feito");
    assertThat(retomada.path("detalhe").stringValue()).contains("configured pace");
    assertThat(estado().path("modo").stringValue())
        .as("until the relay drains it")
        .isEqualTo("esvaziando");
    assertThat(
            json.readTree(post("/status/acoes/retomar-entrega").body())
                .path("resultado")
                .stringValue())
        .isEqualTo("nada_a_fazer");

    assertThat(auditoria())
        .contains(
            "pausar_entrega recusado missing header",
            "pausar_entrega recusado say why",
            "pausar_entrega feito delivery to separacao.efeitos paused (page): " + motivo,
            "pausar_entrega nada_a_fazer already paused",
            "retomar_entrega feito delivery to separacao.efeitos resumed (page)",
            "retomar_entrega nada_a_fazer delivery is not paused");
  }

  @Test
  void pausarERetomarPelaLinhaDeComandoSaoAuditadosComoNaPagina() {
    PostgresLocal postgres = InfraLocal.compartilhada().postgres();
    Map<String, String> ambiente =
        Map.of(
            "SPRING_DATASOURCE_URL", postgres.jdbcUrl(),
            "SPRING_DATASOURCE_USERNAME", PapelNoBanco.APLICADOR.nome(),
            "SPRING_DATASOURCE_PASSWORD", PapelNoBanco.APLICADOR.senhaLocal());

    Execucao semMotivo =
        LinhaDeComandoDeTeste.executar(ambiente, "pausar-entrega", "--operador=" + pedido);
    assertThat(semMotivo.codigo()).isEqualTo(2);
    assertThat(semMotivo.erro()).contains("--motivo");
    assertThat(
            LinhaDeComandoDeTeste.executar(Map.of(), "pausar-entrega", "--operador=x", "--motivo=y")
                .codigo())
        .as("without the database's variables")
        .isEqualTo(2);

    Execucao pausou =
        LinhaDeComandoDeTeste.executar(
            ambiente, "pausar-entrega", "--operador=" + pedido, "--motivo=" + motivo);
    assertThat(pausou.codigo()).isZero();
    assertThat(pausou.saida())
        .contains("feito: delivery to separacao.efeitos paused (command line): " + motivo)
        .contains("delivery to separacao.efeitos: pausada");
    Execucao outraVez =
        LinhaDeComandoDeTeste.executar(
            ambiente, "pausar-entrega", "--operador=" + pedido, "--motivo=" + motivo);
    assertThat(outraVez.codigo()).isZero();
    assertThat(outraVez.saida()).contains("nada_a_fazer: already paused");

    Execucao retomou =
        LinhaDeComandoDeTeste.executar(ambiente, "retomar-entrega", "--operador=" + pedido);
    assertThat(retomou.codigo()).isZero();
    assertThat(retomou.saida())
        .contains("feito: delivery to separacao.efeitos resumed (command line)")
        .contains("delivery to separacao.efeitos: esvaziando");

    List<String> auditadas =
        comoAdministrador()
            .sql(
                "SELECT acao || ' ' || resultado FROM operacoes_auditadas"
                    + " WHERE operador = ? ORDER BY id")
            .param(pedido)
            .query(String.class)
            .list();
    assertThat(auditadas)
        .containsExactly(
            "pausar_entrega feito", "pausar_entrega nada_a_fazer", "retomar_entrega feito");
  }

  private String pausar() {
    return "/status/acoes/pausar-entrega?motivo="
        + URLEncoder.encode(motivo, StandardCharsets.UTF_8);
  }

  private JsonNode estado() throws Exception {
    return getJson("/status/entrega");
  }

  /** This test's operator's audit rows, newest last: action, result and detail. */
  private String auditoria() {
    return comoAdministrador()
        .sql(
            "SELECT acao || ' ' || resultado || ' ' || coalesce(detalhe, '')"
                + " FROM operacoes_auditadas WHERE operador = ? AND alvo = 'separacao.efeitos'"
                + " AND feita_em > now() - interval '5 minutes' ORDER BY id")
        .param(USUARIO)
        .query(String.class)
        .list()
        .stream()
        .collect(java.util.stream.Collectors.joining("\n"));
  }
}
