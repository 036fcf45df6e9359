package pedidos.publicador.linhas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import pedidos.contrato.EnvelopeDeEntrada;
import pedidos.publicador.configuracao.PublicadorProperties;

/**
 * The records Debezium hands over (its change envelope, as Kafka Connect structs) into messages.
 */
class FormatoDasMensagensTest {

  private final FormatoDasMensagens formato = new FormatoDasMensagens(propriedades());

  @Test
  void linhaNovaDoInbox() {
    var mensagem =
        formato
            .daMudanca(
                mudanca(
                    "pub.public.webhook_eventos",
                    "c",
                    linha(
                        "evento_id", "e1",
                        "recurso_id", "p1",
                        "tipo", "order.paid",
                        "payload", "{\"a\": {\"b\": [1, 2.50]}}",
                        "recebido_em", "2026-11-29T12:00:00.123456Z",
                        "aplicado_em", null,
                        "resultado", null,
                        "motivo", null)))
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
    assertThat(mensagem.origem().chave()).isEqualTo(FormatoDasMensagens.chaveDoEvento("e1"));
    assertThat(mensagem.origem().lsn()).isEqualTo(4242L);
    assertThat(mensagem.efeito()).isNull();
  }

  @Test
  void linhaNovaDoOutboxLevaAChaveDeIdempotenciaENaoOEmail() {
    var mensagem =
        formato
            .daMudanca(
                mudanca(
                    "pub.public.outbox",
                    "c",
                    linha(
                        "pedido_id", "p1",
                        "efeito", "liberar_separacao",
                        "status", "pago",
                        "total_centavos", 1990L,
                        "cliente_email", "a@loja.com",
                        "criado_em", "2026-11-29T12:00:00Z",
                        "enviado_em", null)))
            .orElseThrow();

    assertThat(mensagem.origem().chave())
        .isEqualTo(new ChaveDoEfeito("p1", "liberar_separacao").json());
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
    Schema batida = SchemaBuilder.struct().field("ts_ms", Schema.INT64_SCHEMA).build();
    assertThat(
            formato.daMudanca(
                new SourceRecord(
                    Map.of(),
                    Map.of(),
                    "__debezium-heartbeat.pub",
                    batida,
                    new Struct(batida).put("ts_ms", 1L))))
        .isEmpty();
    assertThat(formato.daMudanca(mudanca("pub.message", "m", linha("prefix", "heartbeat"))))
        .isEmpty();
    assertThat(
            formato.daMudanca(
                new SourceRecord(Map.of(), Map.of(), "pub.public.outbox", null, null)))
        .as("a tombstone")
        .isEmpty();
    assertThat(
            formato.daMudanca(
                mudanca("pub.public.outbox", "u", linha("pedido_id", "p1", "efeito", "x"))))
        .as("an update")
        .isEmpty();
    assertThat(formato.daMudanca(mudanca("pub.public.webhook_eventos", "d", null)))
        .as("a delete")
        .isEmpty();
  }

  @Test
  void linhaIncompletaNuncaEPulada() {
    assertThatThrownBy(
            () ->
                formato.daMudanca(
                    mudanca(
                        "pub.public.webhook_eventos", "c", linha("evento_id", "e1", "tipo", "x"))))
        .isInstanceOf(MudancaIlegivelException.class)
        .hasMessageContaining("recurso_id");
    assertThatThrownBy(
            () ->
                formato.daMudanca(
                    mudanca(
                        "pub.public.outbox",
                        "c",
                        linha(
                            "pedido_id", "p1",
                            "efeito", "liberar_separacao",
                            "cliente_email", "a@loja.com",
                            "criado_em", "ontem"))))
        .as("what a row cannot be read for is said without the row's personal data")
        .isInstanceOf(MudancaIlegivelException.class)
        .hasMessageContaining("criado_em")
        .message()
        .doesNotContain("a@loja.com");
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

  /** A row's columns, in order: name, value, name, value... (a String, a Long or null). */
  private static Map<String, Object> linha(Object... colunas) {
    Map<String, Object> linha = new LinkedHashMap<>();
    for (int i = 0; i < colunas.length; i += 2) {
      linha.put((String) colunas[i], colunas[i + 1]);
    }
    return linha;
  }

  /**
   * A change as the PostgreSQL connector builds it: the envelope (op, after, source) and the row's
   * primary key as the record's key.
   */
  private static SourceRecord mudanca(String topico, String op, Map<String, Object> depois) {
    SchemaBuilder colunas = SchemaBuilder.struct().optional();
    if (depois != null) {
      depois.forEach(
          (nome, valor) ->
              colunas.field(
                  nome,
                  valor instanceof Long
                      ? Schema.OPTIONAL_INT64_SCHEMA
                      : Schema.OPTIONAL_STRING_SCHEMA));
    }
    Schema linha = colunas.build();
    Schema fonte = SchemaBuilder.struct().field("ts_ms", Schema.INT64_SCHEMA).build();
    Schema envelope =
        SchemaBuilder.struct()
            .field("before", linha)
            .field("after", linha)
            .field("source", fonte)
            .field("op", Schema.STRING_SCHEMA)
            .build();
    Struct valor =
        new Struct(envelope).put("source", new Struct(fonte).put("ts_ms", 1000L)).put("op", op);
    if (depois != null) {
      Struct row = new Struct(linha);
      depois.forEach(row::put);
      valor.put("after", row);
    }
    List<String> primaria =
        topico.endsWith("outbox") ? List.of("pedido_id", "efeito") : List.of("evento_id");
    SchemaBuilder chave = SchemaBuilder.struct();
    primaria.forEach(c -> chave.field(c, Schema.STRING_SCHEMA));
    Schema esquemaDaChave = chave.build();
    Struct valorDaChave = new Struct(esquemaDaChave);
    primaria.forEach(
        c -> valorDaChave.put(c, depois != null && depois.get(c) != null ? depois.get(c) : "?"));
    return new SourceRecord(
        Map.of("server", "pub"),
        Map.of("lsn", 4242L),
        topico,
        esquemaDaChave,
        valorDaChave,
        envelope,
        valor);
  }
}
