package pedidos.aplicador.painel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import pedidos.aplicador.StatusDoPedido;
import pedidos.aplicador.aplicacao.AplicadorDeEventos;
import pedidos.dominio.Status;
import tools.jackson.databind.JsonNode;

/**
 * Issue 18: an order explained on one page, anomalies grouped, and the operators' audited actions,
 * on the real database and broker, through HTTP with the operators' login, and the page in a real
 * headless browser.
 */
@Tag("todas-as-versoes-do-postgres")
class ExplicarEAgirTest extends ContextoWebDoPainel {

  @Autowired JdbcClient jdbc;
  @Autowired AplicadorDeEventos aplicador;

  /**
   * Paid, canceled, then a late 'enviado' (newer, arriving last): the order stays canceled, picking
   * was released and stopped. The creation arrives after the payment: the fold is in version order.
   */
  private PedidoDeTeste canceladoComEnviadoTardio() {
    return PedidoDeTeste.novo("ord-explicar")
        .email("Cliente.Secreta@Example.com")
        .com(Status.PAGO, 10)
        .com(Status.CRIADO, 5)
        .com(Status.CANCELADO, 20)
        .com(Status.ENVIADO, 30)
        .aplicar(jdbc, aplicador);
  }

  @Test
  void aPaginaDoPedidoDizPorQueEleEstaCanceladoESeASeparacaoFoiLiberada() throws Exception {
    PedidoDeTeste pedido = canceladoComEnviadoTardio();

    JsonNode p = getJson("/status/pedido?id=" + pedido.id());

    assertThat(p.path("armazenado").path("status").stringValue()).isEqualTo("cancelado");
    assertThat(p.path("confere").booleanValue()).isTrue();
    String resumo = p.path("resumo").toString();
    assertThat(resumo)
        .contains("The order is cancelado because of event " + pedido.evento(Status.CANCELADO))
        .contains("moves the order from pago to cancelado")
        .contains(pedido.evento(Status.ENVIADO) + " (webhook order.shipped, received")
        .contains(
            "terminal regression: the order is cancelado, a terminal status that only reembolsado"
                + " may follow; enviado (version 30) would leave it, so it is ignored")
        .contains("Picking was released: liberar_separacao born")
        .contains("Picking was then stopped: interromper_separacao born")
        .contains("NOT published yet")
        .contains("The stored state equals the fold");
    // the fold in version order, whatever the arrival order
    List<String> dobra =
        p.path("dobra").valueStream().map(s -> s.path("eventoId").stringValue()).toList();
    assertThat(dobra)
        .containsExactly(
            pedido.evento(Status.CRIADO),
            pedido.evento(Status.PAGO),
            pedido.evento(Status.CANCELADO),
            pedido.evento(Status.ENVIADO));
    assertThat(p.path("dobra").get(3).path("resultado").stringValue())
        .isEqualTo("regressao_de_terminal");
    // every event with its source, verdict in words, and where it came from on Kafka
    JsonNode enviado =
        p.path("eventos")
            .valueStream()
            .filter(e -> e.path("eventoId").stringValue().equals(pedido.evento(Status.ENVIADO)))
            .findFirst()
            .orElseThrow();
    assertThat(enviado.path("origem").stringValue()).isEqualTo("webhook");
    assertThat(enviado.path("versao").longValue()).isEqualTo(30);
    assertThat(enviado.path("veredicto").stringValue()).startsWith("Terminal regression");
    assertThat(enviado.has("kafkaParticao")).isTrue();
    // effects with their snapshot, email masked everywhere
    assertThat(p.path("efeitos").size()).isEqualTo(2);
    assertThat(p.toString()).contains("C***@Example.com").doesNotContain("Secreta");
  }

  @Test
  void umEstadoDiferenteDaDobraEApontado() throws Exception {
    PedidoDeTeste pedido = canceladoComEnviadoTardio();
    comoAdministrador()
        .sql("UPDATE pedidos SET status = 'pago', versao_origem = 10 WHERE id = ?")
        .param(pedido.id())
        .update();

    JsonNode p = getJson("/status/pedido?id=" + pedido.id());

    assertThat(p.path("confere").booleanValue()).isFalse();
    assertThat(p.path("resumo").toString())
        .contains("The stored state (pago at version 10) differs from the fold")
        .contains("re-deriving the order repairs it");
  }

  @Test
  void buscaPorPedidoEventoOuEmail() throws Exception {
    PedidoDeTeste pedido = canceladoComEnviadoTardio();

    assertThat(getJson("/status/busca?q=" + pedido.id()).toString()).contains(pedido.id());
    assertThat(getJson("/status/busca?q=" + pedido.evento(Status.PAGO)).toString())
        .contains(pedido.id())
        .contains("evento");
    assertThat(
            getJson(
                    "/status/busca?q="
                        + URLEncoder.encode("cliente.secreta@example.COM", StandardCharsets.UTF_8))
                .toString())
        .as("by email, case-insensitively")
        .contains(pedido.id());
    assertThat(getJson("/status/busca?q=nada-" + UUID.randomUUID()).size()).isZero();
  }

  @Test
  void aPaginaNoNavegador(@TempDir Path perfil) throws Exception {
    PedidoDeTeste pedido = canceladoComEnviadoTardio();

    String dom = ChromiumSemCabeca.renderizar(comLogin("/pedido.html?id=" + pedido.id()), perfil);

    assertThat(dom)
        .contains("The order is cancelado because of event " + pedido.evento(Status.CANCELADO))
        .contains("so it is ignored")
        .contains("Picking was released")
        .contains("Re-derive this order")
        .contains("<p id=\"erro\"></p>")
        .doesNotContain("Secreta");

    String anomalias =
        ChromiumSemCabeca.renderizar(
            comLogin("/anomalias.html?tipo=regressao_de_terminal"), perfil);
    assertThat(anomalias)
        .contains(pedido.id())
        .contains("Terminal regression: a newer fact")
        .contains("order.shipped after a terminal status")
        .contains("<p id=\"erro\"></p>");
  }

  @Test
  void anomaliasAgrupadasPorTipoEMotivoComContagensAoLongoDoTempo() throws Exception {
    PedidoDeTeste um = canceladoComEnviadoTardio();
    PedidoDeTeste outro = canceladoComEnviadoTardio();

    JsonNode a = getJson("/status/anomalias?tipo=regressao_de_terminal");

    JsonNode grupo =
        a.path("grupos")
            .valueStream()
            .filter(g -> g.path("tipo").stringValue().equals("order.shipped"))
            .findFirst()
            .orElseThrow();
    assertThat(grupo.path("resultado").stringValue()).isEqualTo("regressao_de_terminal");
    assertThat(grupo.path("quantos").longValue()).isGreaterThanOrEqualTo(2);
    assertThat(grupo.path("frase").stringValue()).startsWith("Terminal regression");
    assertThat(grupo.path("pedidos").toString()).contains(outro.id());
    assertThat(a.path("aoLongoDoTempo").size()).isPositive();
    assertThat(a.path("ultimas").toString()).contains(um.id()).contains(outro.id());
    assertThat(a.path("ultimas").toString()).doesNotContain("fato_invalido\"");
    assertThat(get("/status/anomalias?tipo=aplicado", USUARIO, SENHA).statusCode()).isEqualTo(400);
    assertThat(
            get(
                    "/status/anomalias?desde=2026-01-01T00:00:00Z&ate=2026-02-01T00:00:00Z",
                    USUARIO,
                    SENHA)
                .statusCode())
        .as("the window is bounded")
        .isEqualTo(400);
  }

  @Test
  void rederivarUmPedidoRepara_eDuasVezesEUmaSo() throws Exception {
    PedidoDeTeste pedido = canceladoComEnviadoTardio();
    // a restore from an old backup: the order's row is behind its facts
    comoAdministrador()
        .sql("UPDATE pedidos SET status = 'pago', versao_origem = 10 WHERE id = ?")
        .param(pedido.id())
        .update();

    HttpResponse<String> primeira = post("/status/acoes/rederivar-pedido?pedido=" + pedido.id());
    HttpResponse<String> segunda = post("/status/acoes/rederivar-pedido?pedido=" + pedido.id());

    assertThat(primeira.statusCode()).isEqualTo(200);
    assertThat(json.readTree(primeira.body()).path("resultado").stringValue()).isEqualTo("feito");
    assertThat(primeira.body()).contains("pago v10").contains("cancelado v20");
    assertThat(json.readTree(segunda.body()).path("resultado").stringValue())
        .isEqualTo("nada_a_fazer");
    assertThat(StatusDoPedido.atual(jdbc, pedido.id())).isEqualTo("cancelado");
    assertThat(
            jdbc.sql("SELECT count(*) FROM outbox WHERE pedido_id = ?")
                .param(pedido.id())
                .query(Long.class)
                .single())
        .as("no effect twice")
        .isEqualTo(2);
    assertThat(auditoria(pedido.id(), "rederivar_pedido"))
        .containsExactly(
            Map.of("operador", USUARIO, "resultado", "feito"),
            Map.of("operador", USUARIO, "resultado", "nada_a_fazer"));
    assertThat(getJson("/status/pedido?id=" + pedido.id()).path("acoes").size()).isEqualTo(2);
  }

  @Test
  void republicarUmEfeito_duasVezesEUmaSo() throws Exception {
    PedidoDeTeste pedido = canceladoComEnviadoTardio();
    comoAdministrador()
        .sql("UPDATE outbox SET enviado_em = now() WHERE pedido_id = ?")
        .param(pedido.id())
        .update();
    String caminho =
        "/status/acoes/republicar-efeito?pedido=" + pedido.id() + "&efeito=liberar_separacao";

    HttpResponse<String> primeira = post(caminho);
    HttpResponse<String> segunda = post(caminho);
    HttpResponse<String> desconhecido =
        post("/status/acoes/republicar-efeito?pedido=" + pedido.id() + "&efeito=explodir");

    assertThat(json.readTree(primeira.body()).path("resultado").stringValue()).isEqualTo("feito");
    assertThat(json.readTree(segunda.body()).path("resultado").stringValue())
        .isEqualTo("nada_a_fazer");
    assertThat(desconhecido.statusCode()).isEqualTo(409);
    assertThat(
            jdbc.sql("SELECT efeito FROM outbox WHERE pedido_id = ? AND enviado_em IS NULL")
                .param(pedido.id())
                .query(String.class)
                .list())
        .as("only that effect is queued for the relay's fallback")
        .containsExactly("liberar_separacao");
    assertThat(auditoria(pedido.id(), "republicar_efeito"))
        .containsExactly(
            Map.of("operador", USUARIO, "resultado", "feito"),
            Map.of("operador", USUARIO, "resultado", "nada_a_fazer"),
            Map.of("operador", USUARIO, "resultado", "recusado"));
  }

  @Test
  void liberarUmCorpoDaQuarentena_guardaUmaVezSo() throws Exception {
    String pedidoId = "ord-quarentena-" + UUID.randomUUID().toString().substring(0, 8);
    String eventoId = pedidoId + "-pago";
    String corpo =
        "{\"id\": \"%s\", \"type\": \"order.paid\", \"sequence\": 3, \"data\": {\"id\": \"%s\"}}"
            .formatted(eventoId, pedidoId);
    long id = quarentenar(corpo, eventoId);
    long invalido = quarentenar("{\"id\": \"x\", \"id\": \"y\"} " + UUID.randomUUID(), null);

    HttpResponse<String> primeira = post("/status/acoes/liberar-quarentena?id=" + id);
    HttpResponse<String> segunda = post("/status/acoes/liberar-quarentena?id=" + id);
    HttpResponse<String> aindaInvalido = post("/status/acoes/liberar-quarentena?id=" + invalido);

    assertThat(json.readTree(primeira.body()).path("resultado").stringValue()).isEqualTo("feito");
    assertThat(json.readTree(segunda.body()).path("resultado").stringValue())
        .isEqualTo("nada_a_fazer");
    assertThat(
            jdbc.sql(
                    "SELECT count(*) FROM webhook_eventos"
                        + " WHERE evento_id = ? AND recurso_id = ? AND aplicado_em IS NULL")
                .params(eventoId, pedidoId)
                .query(Long.class)
                .single())
        .as("stored once, pending, as the receptor stores an event")
        .isEqualTo(1);
    assertThat(aindaInvalido.statusCode()).isEqualTo(409);
    assertThat(aindaInvalido.body()).contains("still cannot be stored");
    assertThat(
            jdbc.sql("SELECT liberado_em IS NULL FROM webhook_quarentena WHERE id = ?")
                .param(invalido)
                .query(Boolean.class)
                .single())
        .isTrue();
    assertThat(auditoria(pedidoId, "liberar_quarentena"))
        .containsExactly(
            Map.of("operador", USUARIO, "resultado", "feito"),
            Map.of("operador", USUARIO, "resultado", "nada_a_fazer"));
    assertThat(
            jdbc.sql("SELECT resultado FROM operacoes_auditadas WHERE acao = ? AND alvo = ?")
                .params("liberar_quarentena", String.valueOf(invalido))
                .query(String.class)
                .list())
        .containsExactly("recusado");
  }

  @Test
  void republicarUmaCartaMorta_pedeAoRelayUmaVezSo() throws Exception {
    PedidoDeTeste pedido = canceladoComEnviadoTardio();
    long id =
        comoAdministrador()
            .sql(
                """
                INSERT INTO publicador_mortos (tabela, chave, motivo)
                VALUES ('outbox', jsonb_build_object('pedido_id', ?, 'efeito', 'liberar_separacao'),
                        'RecordTooLargeException')
                RETURNING id
                """)
            .param(pedido.id())
            .query(Long.class)
            .single();

    HttpResponse<String> primeira = post("/status/acoes/republicar-morto?id=" + id);
    HttpResponse<String> segunda = post("/status/acoes/republicar-morto?id=" + id);

    assertThat(json.readTree(primeira.body()).path("resultado").stringValue()).isEqualTo("feito");
    assertThat(json.readTree(segunda.body()).path("resultado").stringValue())
        .isEqualTo("nada_a_fazer");
    assertThat(
            jdbc.sql(
                    "SELECT republicacao_pedida_em IS NOT NULL AND republicado_em IS NULL"
                        + " FROM publicador_mortos WHERE id = ?")
                .param(id)
                .query(Boolean.class)
                .single())
        .as("requested, and left for the relay to close")
        .isTrue();
    assertThat(auditoria(pedido.id(), "republicar_morto"))
        .containsExactly(
            Map.of("operador", USUARIO, "resultado", "feito"),
            Map.of("operador", USUARIO, "resultado", "nada_a_fazer"));
    assertThat(getJson("/status/pedido?id=" + pedido.id()).path("mortos").toString())
        .contains("RecordTooLargeException");
  }

  @Test
  void semLogin401_esemOCabecalhoDasAcoes403Auditado() throws Exception {
    PedidoDeTeste pedido = canceladoComEnviadoTardio();
    for (String caminho :
        List.of(
            "/pedido.html",
            "/anomalias.html",
            "/status/pedido?id=" + pedido.id(),
            "/status/busca?q=" + pedido.id(),
            "/status/anomalias",
            "/status/retidos")) {
      HttpResponse<String> resposta = get(caminho, null, null);
      assertThat(resposta.statusCode()).as(caminho).isEqualTo(401);
      assertThat(resposta.body()).doesNotContain(pedido.id());
    }
    for (String caminho :
        List.of(
            "/status/acoes/rederivar-pedido?pedido=" + pedido.id(),
            "/status/acoes/republicar-efeito?pedido=" + pedido.id() + "&efeito=liberar_separacao",
            "/status/acoes/liberar-quarentena?id=1",
            "/status/acoes/republicar-morto?id=1")) {
      assertThat(enviar(caminho, null, null, true, null).statusCode()).as(caminho).isEqualTo(401);
      assertThat(enviar(caminho, USUARIO, "senha-errada-mas-longa", true, null).statusCode())
          .as(caminho)
          .isEqualTo(401);
    }
    assertThat(auditoria(pedido.id(), "rederivar_pedido")).as("anonymous does nothing").isEmpty();

    HttpResponse<String> semCabecalho =
        enviar("/status/acoes/rederivar-pedido?pedido=" + pedido.id(), USUARIO, SENHA, false, null);

    assertThat(semCabecalho.statusCode()).isEqualTo(403);
    assertThat(auditoria(pedido.id(), "rederivar_pedido"))
        .containsExactly(Map.of("operador", USUARIO, "resultado", "recusado"));
  }

  private long quarentenar(String corpo, String eventoId) {
    return comoAdministrador()
        .sql(
            """
            INSERT INTO webhook_quarentena (corpo, motivo, evento_id)
            VALUES (convert_to(?, 'UTF8'), 'campo_longo_demais', ?)
            RETURNING id
            """)
        .params(corpo, eventoId)
        .query(Long.class)
        .single();
  }

  private List<Map<String, String>> auditoria(String pedidoId, String acao) {
    return jdbc.sql(
            """
            SELECT operador, resultado FROM operacoes_auditadas
             WHERE pedido_id = ? AND acao = ? ORDER BY id
            """)
        .params(pedidoId, acao)
        .query((rs, n) -> Map.of("operador", rs.getString(1), "resultado", rs.getString(2)))
        .list();
  }
}
