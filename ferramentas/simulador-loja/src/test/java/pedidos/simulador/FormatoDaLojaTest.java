package pedidos.simulador;

import static org.assertj.core.api.Assertions.assertThat;

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
}
