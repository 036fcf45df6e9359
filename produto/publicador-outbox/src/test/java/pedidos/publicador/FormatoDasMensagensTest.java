package pedidos.publicador;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.debezium.engine.ChangeEvent;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import pedidos.contrato.EnvelopeDeEntrada;

/** The shapes Debezium hands over (ExtractNewRecordState, JSON without schemas) into messages. */
class FormatoDasMensagensTest {

  private final FormatoDasMensagens formato = new FormatoDasMensagens(propriedades());

  @Test
  void linhaNovaDoInbox() {
    var mensagem =
        formato
            .daMudanca(
                mudanca(
                    "pub.public.webhook_eventos",
                    """
                    {"evento_id": "e1", "recurso_id": "p1", "tipo": "order.paid",
                     "payload": "{\\"a\\": {\\"b\\": [1, 2.50]}}",
                     "recebido_em": "2026-11-29T12:00:00.123456Z", "aplicado_em": null,
                     "resultado": null, "motivo": null, "__op": "c", "__source_ts_ms": 1000}
                    """))
            .orElseThrow();

    assertThat(mensagem.tabela()).isEqualTo(Tabela.WEBHOOK_EVENTOS);
    assertThat(mensagem.registro().topic()).isEqualTo("loja.eventos");
    assertThat(mensagem.registro().key()).isEqualTo("p1");
    assertThat(mensagem.registro().value())
        .isEqualTo(
            "{\"evento_id\":\"e1\",\"recurso_id\":\"p1\",\"tipo\":\"order.paid\","
                + "\"payload\":{\"a\":{\"b\":[1,2.50]}},"
                + "\"recebido_em\":\"2026-11-29T12:00:00.123456Z\"}");
    assertThat(mensagem.commit()).isEqualTo(Instant.ofEpochMilli(1000));
    assertThat(mensagem.efeito()).isNull();
  }

  @Test
  void linhaNovaDoOutboxLevaAChaveDeIdempotenciaENaoOEmail() {
    var mensagem =
        formato
            .daMudanca(
                mudanca(
                    "pub.public.outbox",
                    """
                    {"pedido_id": "p1", "efeito": "liberar_separacao", "status": "pago",
                     "total_centavos": 1990, "cliente_email": "a@loja.com",
                     "criado_em": "2026-11-29T12:00:00Z", "enviado_em": null, "__op": "c",
                     "__source_ts_ms": 1000}
                    """))
            .orElseThrow();

    assertThat(mensagem.registro().topic()).isEqualTo("separacao.efeitos");
    assertThat(mensagem.registro().key()).isEqualTo("p1");
    assertThat(mensagem.efeito()).isEqualTo(new ChaveDoEfeito("p1", "liberar_separacao"));
    assertThat(new String(mensagem.registro().headers().lastHeader("idempotency-key").value()))
        .isEqualTo("p1:liberar_separacao");
    assertThat(mensagem.registro().value())
        .isEqualTo(
            "{\"pedido_id\":\"p1\",\"efeito\":\"liberar_separacao\",\"status\":\"pago\","
                + "\"total_centavos\":1990,"
                + "\"criado_em\":\"2026-11-29T12:00:00Z\"}");
  }

  @Test
  void oQueNaoELinhaNovaNaoViraMensagem() {
    assertThat(formato.daMudanca(mudanca("__debezium-heartbeat.pub", "{\"ts_ms\": 1}"))).isEmpty();
    assertThat(formato.daMudanca(mudanca("pub.message", "{\"op\": \"m\"}"))).isEmpty();
    assertThat(formato.daMudanca(mudanca("pub.public.outbox", null))).isEmpty();
    assertThat(
            formato.daMudanca(
                mudanca(
                    "pub.public.outbox",
                    "{\"pedido_id\": \"p1\", \"efeito\": \"x\", \"__op\": \"u\"}")))
        .as("an update")
        .isEmpty();
    assertThat(
            formato.daMudanca(
                mudanca("pub.public.webhook_eventos", "{\"evento_id\": \"e1\", \"__op\": \"d\"}")))
        .as("a delete")
        .isEmpty();
  }

  @Test
  void linhaIncompletaNuncaEPulada() {
    assertThatThrownBy(
            () ->
                formato.daMudanca(
                    mudanca(
                        "pub.public.webhook_eventos",
                        "{\"evento_id\": \"e1\", \"tipo\": \"x\", \"__op\": \"c\"}")))
        .isInstanceOf(MudancaIlegivelException.class)
        .hasMessageContaining("recurso_id");
  }

  @Test
  void numerosDoEnvelopeSaemComOTextoQueOPostgresGuarda() {
    String grande = "9" + "0".repeat(400);
    String pequeno = "-0." + "0".repeat(308) + "1".repeat(92);
    var mensagem =
        formato.doEvento(
            "e1",
            "p1",
            "order.paid",
            "{\"a\": %s, \"b\": %s, \"c\": 2.50}".formatted(grande, pequeno),
            Instant.EPOCH,
            null,
            null);

    assertThat(mensagem.registro().value())
        .contains("\"payload\":{\"a\":" + grande + ",\"b\":" + pequeno + ",\"c\":2.50}");
  }

  @Test
  void oQueSaiDoEnvelopeEIlegivel() {
    // 1e1000 as PostgreSQL writes it back: 1,001 digits.
    assertThatThrownBy(
            () ->
                formato.doEvento(
                    "e1",
                    "p1",
                    "x",
                    "{\"x\": 1" + "0".repeat(1000) + "}",
                    Instant.EPOCH,
                    null,
                    null))
        .isInstanceOf(MudancaIlegivelException.class)
        .hasRootCauseInstanceOf(tools.jackson.core.exc.StreamConstraintsException.class);
    String fundo =
        "[".repeat(EnvelopeDeEntrada.PROFUNDIDADE_DOS_LEITORES + 1)
            + "]".repeat(EnvelopeDeEntrada.PROFUNDIDADE_DOS_LEITORES + 1);
    assertThatThrownBy(
            () ->
                formato.doEvento(
                    "e1", "p1", "x", "{\"x\": " + fundo + "}", Instant.EPOCH, null, null))
        .isInstanceOf(MudancaIlegivelException.class)
        .hasRootCauseInstanceOf(tools.jackson.core.exc.StreamConstraintsException.class);
  }

  static PublicadorProperties propriedades() {
    return new Binder(new MapConfigurationPropertySource(Map.of("publicador.prefixo", "pub")))
        .bindOrCreate("publicador", PublicadorProperties.class);
  }

  private static ChangeEvent<String, String> mudanca(String destino, String valor) {
    return new ChangeEvent<>() {
      @Override
      public String key() {
        return null;
      }

      @Override
      public String value() {
        return valor;
      }

      @Override
      public String destination() {
        return destino;
      }

      @Override
      public Integer partition() {
        return null;
      }
    };
  }
}
