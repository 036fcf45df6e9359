package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import pedidos.dominio.Status;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class FormatoDaLojaTest {

  private final FormatoDaLoja formato = new FormatoDaLoja();
  private final JsonMapper json = JsonMapper.builder().build();

  @Test
  void osNomesDaLojaSaoOsQueODominioLe() {
    for (Status status : Status.values()) {
      assertThat(Status.doTipoDeEvento(CodigosDaLoja.tipoDoEvento(status))).contains(status);
      assertThat(Status.daApi(CodigosDaLoja.statusDaApi(status))).contains(status);
    }
  }

  @Test
  void corpoDoWebhookComSequenceEDadosCompletos() {
    var evento =
        new EventoDaLoja(
            "evt_1",
            "ord_1",
            1,
            Status.PAGO,
            7L,
            Instant.parse("2026-11-29T12:00:00Z"),
            1990L,
            "a@loja",
            false);

    JsonNode corpo = json.readTree(formato.corpoDoWebhook(evento));

    assertThat(corpo.path("id").stringValue()).isEqualTo("evt_1");
    assertThat(corpo.path("type").stringValue()).isEqualTo("order.paid");
    assertThat(corpo.path("occurred_at").stringValue()).isEqualTo("2026-11-29T12:00:00.000Z");
    assertThat(corpo.path("sequence").longValue()).isEqualTo(7);
    assertThat(corpo.path("data").path("id").stringValue()).isEqualTo("ord_1");
    assertThat(corpo.path("data").path("status").stringValue()).isEqualTo("paid");
    assertThat(corpo.path("data").path("total_cents").longValue()).isEqualTo(1990);
    assertThat(corpo.path("data").path("customer_email").stringValue()).isEqualTo("a@loja");
  }

  @Test
  void camposAusentesNaoSaoEscritos() {
    var evento =
        new EventoDaLoja(
            "evt_2",
            "ord_2",
            0,
            Status.CRIADO,
            null,
            Instant.parse("2026-11-29T12:00:00.120Z"),
            null,
            null,
            false);

    JsonNode corpo = json.readTree(formato.corpoDoWebhook(evento));

    assertThat(corpo.has("sequence")).isFalse();
    assertThat(corpo.path("occurred_at").stringValue()).isEqualTo("2026-11-29T12:00:00.120Z");
    assertThat(corpo.path("data").has("total_cents")).isFalse();
    assertThat(corpo.path("data").has("customer_email")).isFalse();
    assertThat(evento.fato().versao())
        .isEqualTo(Instant.parse("2026-11-29T12:00:00.120Z").toEpochMilli() * 10 + 1);
  }

  @Test
  void assinaturaEOHmacSha256EmHexMinusculo() {
    // A well-known HMAC-SHA256 test vector.
    var assinatura = new Assinatura("key");
    byte[] corpo = "The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.UTF_8);

    assertThat(assinatura.de(corpo))
        .isEqualTo("f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8");
    assertThat(assinatura.confere(corpo, assinatura.de(corpo))).isTrue();
    assertThat(assinatura.confere(corpo, assinatura.de(corpo).toUpperCase())).isFalse();
    assertThat(assinatura.confere(corpo, null)).isFalse();
  }

  @Test
  void idDoFatoDaApiSegueOContratoDaReconciliacao() {
    Instant quando = Instant.parse("2026-11-29T12:00:00Z");
    var porSequencia = new VistaDoPedido("ord_1", Status.PAGO, 7L, quando, 1990L, "a@loja");
    var porInstante = new VistaDoPedido("ord_2", Status.CRIADO, null, quando, 1990L, "a@loja");

    assertThat(porSequencia.eventoId()).isEqualTo("api:ord_1:s7:paid");
    assertThat(porInstante.eventoId()).isEqualTo("api:ord_2:2026-11-29T12:00:00.000Z:open");
    assertThat(porSequencia.fato().versao()).isEqualTo(7);
    assertThat(porInstante.fato().versao()).isEqualTo(quando.toEpochMilli() * 10 + 1);
  }

  @Test
  void paginaDaApi() {
    Instant quando = Instant.parse("2026-11-29T12:00:00Z");
    byte[] pagina =
        formato.pagina(
            List.of(
                new VistaDoPedido("ord_1", Status.ENVIADO, 3L, quando, 100L, "a@loja"),
                new VistaDoPedido("ord_2", Status.REEMBOLSADO, null, quando, null, null)),
            null);

    JsonNode corpo = json.readTree(pagina);

    assertThat(corpo.path("next").isNull()).isTrue();
    JsonNode primeiro = corpo.path("orders").get(0);
    assertThat(primeiro.path("status").stringValue()).isEqualTo("shipped");
    assertThat(primeiro.path("sequence").longValue()).isEqualTo(3);
    assertThat(primeiro.path("updated_at").stringValue()).isEqualTo("2026-11-29T12:00:00.000Z");
    JsonNode segundo = corpo.path("orders").get(1);
    assertThat(segundo.path("status").stringValue()).isEqualTo("refunded");
    assertThat(segundo.has("sequence")).isFalse();
    assertThat(segundo.has("total_cents")).isFalse();
  }

  @Test
  void mensagemDaSeparacao() {
    EfeitoRecebido efeito =
        formato.efeito(
            """
            {"pedido_id":"ord_1","efeito":"liberar_separacao","status":"pago",\
            "total_centavos":1990,"cliente_email":"a@loja","criado_em":"2026-11-29T12:00:00Z"}\
            """);

    assertThat(efeito)
        .isEqualTo(new EfeitoRecebido("ord_1", "liberar_separacao", "pago", 1990L, "a@loja"));
    assertThat(efeito.chave()).isEqualTo("ord_1:liberar_separacao");
    assertThat(formato.efeito("not json")).isNull();
    assertThat(formato.efeito("{\"pedido_id\":\"ord_1\"}")).isNull();
  }
}
