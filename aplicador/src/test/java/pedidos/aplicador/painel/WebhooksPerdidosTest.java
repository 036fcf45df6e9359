package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.aplicador.aplicacao.CaixaDeEntrada;
import pedidos.aplicador.aplicacao.LeitorDeEventos;
import pedidos.contrato.RegistroDeEvento;
import pedidos.dominio.ModoDeAplicacao;
import pedidos.testes.Consultas;
import tools.jackson.databind.JsonNode;

/**
 * Issue 29: lost webhooks on the anomalies page, with the operators' login: grouped by event type,
 * counted per hour, the share of facts only the API told (against the inbox's count per minute), a
 * day's list as JSON and CSV, the page in headless Chromium with its chart, and the queries on
 * their indexes. The facts go through the real apply on the real PostgreSQL; each test run uses a
 * day of its own in the past, so other tests' records never fall in its windows.
 */
@Tag("todas-as-versoes-do-postgres")
class WebhooksPerdidosTest extends ContextoWebDoPainel {

  @Autowired JdbcClient jdbc;
  @Autowired DataSource dataSource;
  @Autowired CaixaDeEntrada caixaDeEntrada;
  @Autowired AplicadorDeEventos aplicador;

  private final String p = UUID.randomUUID().toString().substring(0, 8) + "-";
  // A day of its own for each test, years ago: no other test reveals facts then.
  private static final AtomicInteger DIAS =
      new AtomicInteger(ThreadLocalRandom.current().nextInt(3000));

  private final LocalDate dia = LocalDate.of(2010, 1, 1).plusDays(DIAS.getAndIncrement());

  @BeforeEach
  void umDiaDePerdas() {
    // Two paid facts no webhook delivered, revealed 15 and 30 minutes after the fact, at 10h.
    daApi("o1", "paid", 2, "10:00:00", "10:15:00");
    daApi("o2", "paid", 3, "10:10:00", "10:40:00");
    // A shipped fact revealed at 13:05, whose webhook came at 14:00: late, not lost.
    daApi("o3", "shipped", 4, "13:00:00", "13:05:00");
    String webhook = p + "wh-o3";
    caixaDeEntrada.guardarSeAusente(
        new RegistroDeEvento(
            webhook,
            p + "o3",
            "order.shipped",
            """
            {"id": "%s", "type": "order.shipped", "sequence": 4,
             "occurred_at": "%sT13:00:00Z", "data": {"id": "%s"}}
            """
                .formatted(webhook, dia, p + "o3"),
            em("14:00:00")));
    aplicador.aplicar(webhook, ModoDeAplicacao.NORMAL);
    // The inbox's count per minute (FluxoPorMinuto): 100 events stored at 10h, 50 at 13h.
    for (var recebidos : List.of(List.of("10:07:00", 60L), List.of("10:31:00", 40L))) {
      jdbc.sql(
              """
              INSERT INTO fluxo_por_minuto (minuto, recebidos) VALUES (?, ?)
              ON CONFLICT (minuto) DO UPDATE SET recebidos = excluded.recebidos
              """)
          .params(em((String) recebidos.get(0)).atOffset(ZoneOffset.UTC), recebidos.get(1))
          .update();
    }
    jdbc.sql(
            """
            INSERT INTO fluxo_por_minuto (minuto, recebidos) VALUES (?, 50)
            ON CONFLICT (minuto) DO UPDATE SET recebidos = excluded.recebidos
            """)
        .param(em("13:05:00").atOffset(ZoneOffset.UTC))
        .update();
  }

  @Test
  void agrupadosContadosPorHoraComAParcelaSoDaApi() throws Exception {
    JsonNode w = getJson(janela());

    assertThat(w.path("anomalia").stringValue()).isEqualTo("webhook_nao_entregue");
    assertThat(w.path("por").stringValue()).isEqualTo("hora");
    assertThat(w.path("perdidos").longValue()).isEqualTo(2);
    assertThat(w.path("atrasados").longValue()).isEqualTo(1);
    JsonNode pagos = grupo(w, "order.paid");
    assertThat(pagos.path("perdidos").longValue()).isEqualTo(2);
    assertThat(pagos.path("atrasados").longValue()).isZero();
    assertThat(pagos.path("atrasoMedianoS").doubleValue())
        .as("revealed 15 and 30 minutes after the fact")
        .isEqualTo(1350.0);
    assertThat(pagos.path("pedidos").toString()).contains(p + "o1").contains(p + "o2");
    assertThat(grupo(w, "order.shipped").path("atrasados").longValue()).isEqualTo(1);
    assertThat(grupo(w, "order.shipped").path("perdidos").longValue()).isZero();

    JsonNode fatias = w.path("aoLongoDoTempo");
    assertThat(fatias.size()).as("every hour of the day, empty ones too").isEqualTo(24);
    JsonNode dez = fatias.get(10);
    assertThat(dez.path("inicio").stringValue()).startsWith(dia + "T10:00");
    assertThat(dez.path("perdidos").longValue()).isEqualTo(2);
    assertThat(dez.path("recebidos").longValue()).isEqualTo(100);
    assertThat(dez.path("parcela").doubleValue()).isEqualTo(0.02);
    JsonNode treze = fatias.get(13);
    assertThat(treze.path("perdidos").longValue()).isZero();
    assertThat(treze.path("atrasados").longValue()).isEqualTo(1);
    assertThat(treze.path("parcela").doubleValue()).isZero();
    assertThat(fatias.get(3).path("parcela").isNull()).as("not counted: no share").isTrue();

    assertThat(getJson(janela() + "&por=dia").path("aoLongoDoTempo").size()).isEqualTo(1);
    for (String ruim :
        List.of(
            "/status/webhooks-nao-entregues?por=semana",
            "/status/webhooks-nao-entregues?desde=2026-01-01T00:00:00Z&ate=2026-02-01T00:00:00Z",
            "/status/webhooks-nao-entregues?desde=ontem",
            "/status/webhooks-nao-entregues/dia?dia=2-12",
            "/status/webhooks-nao-entregues/dia?dia=" + dia + "&formato=xml",
            "/status/webhooks-nao-entregues/dia")) {
      assertThat(get(ruim, USUARIO, SENHA).statusCode()).as(ruim).isEqualTo(400);
    }
  }

  @Test
  void aListaDoDiaParaALojaEmJsonECsv() throws Exception {
    JsonNode d = getJson("/status/webhooks-nao-entregues/dia?dia=" + dia);

    assertThat(d.path("frase").stringValue())
        .isEqualTo(
            "These 2 events of "
                + dia
                + " (UTC, the day the store's API revealed them) were never delivered as"
                + " webhooks; 1 more arrived late");
    assertThat(d.path("completa").booleanValue()).isTrue();
    assertThat(d.path("eventos").valueStream().map(e -> e.path("pedidoId").stringValue()))
        .containsExactly(p + "o1", p + "o2");
    JsonNode primeiro = d.path("eventos").get(0);
    assertThat(primeiro.path("tipo").stringValue()).isEqualTo("order.paid");
    assertThat(primeiro.path("sequencia").longValue()).isEqualTo(2);
    assertThat(primeiro.path("atrasoS").doubleValue()).isEqualTo(900.0);
    assertThat(primeiro.path("eventoId").stringValue()).isEqualTo("api:" + p + "o1:s2:paid");

    HttpResponse<String> csv =
        get("/status/webhooks-nao-entregues/dia?dia=" + dia + "&formato=csv", USUARIO, SENHA);

    assertThat(csv.statusCode()).isEqualTo(200);
    assertThat(csv.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/csv");
    assertThat(csv.headers().firstValue("Content-Disposition").orElseThrow())
        .isEqualTo("attachment; filename=\"webhooks-nao-entregues-" + dia + ".csv\"");
    assertThat(csv.body().lines())
        .containsExactly(
            "pedido_id,tipo,sequencia,fato_em,revelado_em,atraso_s,evento_id",
            p + "o1,order.paid,2," + dia + "T10:00Z," + dia + "T10:15Z,900,api:" + p + "o1:s2:paid",
            p
                + "o2,order.paid,3,"
                + dia
                + "T10:10Z,"
                + dia
                + "T10:40Z,1800,api:"
                + p
                + "o2:s3:paid");
    assertThat(WebhooksPerdidos.celula("=HYPERLINK(\"x\")"))
        .as("a cell a spreadsheet would run is quoted and defused")
        .isEqualTo("\"'=HYPERLINK(\"\"x\"\")\"");
  }

  @Test
  void semLogin401() throws Exception {
    for (String caminho :
        List.of(
            "/status/webhooks-nao-entregues",
            "/status/webhooks-nao-entregues/dia?dia=" + dia,
            "/status/webhooks-nao-entregues/dia?dia=" + dia + "&formato=csv",
            "/perdidos.js")) {
      HttpResponse<String> resposta = get(caminho, null, null);
      assertThat(resposta.statusCode()).as(caminho).isEqualTo(401);
      assertThat(resposta.body()).doesNotContain(p);
      assertThat(get(caminho, USUARIO, "senha-errada-mas-longa").statusCode())
          .as(caminho)
          .isEqualTo(401);
    }
  }

  @Test
  void aPaginaDeAnomaliasNoNavegador(@TempDir Path perfil) throws Exception {
    String dom =
        ChromiumSemCabeca.renderizar(
            comLogin(
                "/anomalias.html?desde="
                    + dia
                    + "T00:00:00Z&ate="
                    + dia.plusDays(1)
                    + "T00:00:00Z"),
            perfil);

    assertThat(dom)
        .contains("Lost webhooks (webhook_nao_entregue)")
        .contains("2 never delivered, 1 late, in the window")
        .contains("1350 s")
        .contains(p + "o1")
        .contains("These 2 events of " + dia)
        .contains("2%")
        .contains("fill=\"#c2185b\"")
        .contains("<p id=\"perdidos-erro\" style=\"color:#b3261e\"></p>")
        .contains("<p id=\"erro\"></p>");
    assertThat(dom.split("fill=\"#c2185b\"", -1).length - 1)
        .as("one bar: the only hour with a share above zero")
        .isEqualTo(1);
  }

  @Test
  void asConsultasLeemPelosIndices() throws Exception {
    for (String sql :
        List.of(
            WebhooksPerdidos.GRUPOS,
            WebhooksPerdidos.POR_FATIA,
            WebhooksPerdidos.RECEBIDOS_POR_FATIA,
            WebhooksPerdidos.DO_DIA,
            WebhooksPerdidos.ATRASADOS_DO_DIA)) {
      String plano = plano(sql);
      assertThat(plano)
          .as(plano)
          .doesNotContain("Seq Scan")
          .containsAnyOf("webhooks_nao_entregues_revelados", "fluxo_por_minuto_pkey");
    }
    assertThat(plano("SELECT * FROM webhooks_nao_entregues WHERE tipo = 'order.paid'"))
        .as("a query no index serves would fail the check")
        .doesNotContain("webhooks_nao_entregues_revelados");
  }

  private String plano(String sql) throws Exception {
    String literal =
        sql.replace(":desde", "(now() - interval '24 hours')")
            .replace(":ate", "now()")
            .replace(":passo", "3600")
            .replace(":limite", "50001");
    return Consultas.de(dataSource).planoSemVarreduraSequencial(literal);
  }

  /** A fact reconciliation stored at {@code revelado} and applied; no webhook for it. */
  private void daApi(String pedido, String status, int sequencia, String fato, String revelado) {
    String id = "api:" + p + pedido + ":s" + sequencia + ":" + status;
    caixaDeEntrada.guardarSeAusente(
        new RegistroDeEvento(
            id,
            p + pedido,
            LeitorDeEventos.TIPO_DA_API,
            """
            {"id": "%s", "status": "%s", "sequence": %d, "updated_at": "%sT%sZ"}
            """
                .formatted(p + pedido, status, sequencia, dia, fato),
            em(revelado)));
    assertThat(aplicador.aplicar(id, ModoDeAplicacao.NORMAL)).isPresent();
  }

  private Instant em(String hora) {
    return Instant.parse(dia + "T" + hora + "Z");
  }

  private String janela() {
    return "/status/webhooks-nao-entregues?desde="
        + dia
        + "T00:00:00Z&ate="
        + dia.plusDays(1)
        + "T00:00:00Z";
  }

  private static JsonNode grupo(JsonNode w, String tipo) {
    return w.path("grupos")
        .valueStream()
        .filter(g -> g.path("tipo").stringValue().equals(tipo))
        .findFirst()
        .orElseThrow();
  }
}
