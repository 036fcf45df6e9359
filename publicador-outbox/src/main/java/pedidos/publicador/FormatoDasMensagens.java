package pedidos.publicador;

import io.debezium.engine.ChangeEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The edge between captured rows and Kafka messages: the one place that knows both the row shapes
 * Debezium hands over and the message shapes consumers read.
 *
 * <p>Messages are self-contained (a consumer or a replay needs nothing else) and the same whether a
 * row comes from the stream or from the fallback re-send. Instants are written as {@link
 * Instant#toString()} in both paths.
 */
@Component
class FormatoDasMensagens {

  static final String CABECALHO_DE_IDEMPOTENCIA = "idempotency-key";

  // Numbers in a payload are kept exactly as stored: no double rounding (7.000000000000001 stays
  // what it is) and no trailing zeros stripped.
  private final JsonMapper json =
      JsonMapper.builder()
          .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .build();

  private final PublicadorProperties.Topicos topicos;
  private final String destinoDoInbox;
  private final String destinoDoOutbox;

  FormatoDasMensagens(PublicadorProperties propriedades) {
    this.topicos = propriedades.topicos();
    // Debezium's own topic names, <prefix>.<schema>.<table>: they tell the rows' tables apart.
    String prefixo = propriedades.prefixo() + "." + propriedades.esquema() + ".";
    this.destinoDoInbox = prefixo + Tabela.WEBHOOK_EVENTOS.nome();
    this.destinoDoOutbox = prefixo + Tabela.OUTBOX.nome();
  }

  /**
   * The message for a captured change; empty for what is not a new row of a captured table
   * (heartbeats, logical decoding messages, and any operation other than an INSERT).
   */
  Optional<Mensagem> daMudanca(ChangeEvent<String, String> mudanca) {
    Tabela tabela;
    if (destinoDoInbox.equals(mudanca.destination())) {
      tabela = Tabela.WEBHOOK_EVENTOS;
    } else if (destinoDoOutbox.equals(mudanca.destination())) {
      tabela = Tabela.OUTBOX;
    } else {
      return Optional.empty();
    }
    if (mudanca.value() == null) {
      return Optional.empty(); // a tombstone
    }
    JsonNode linha = ler(mudanca.value(), mudanca.destination());
    // The publication carries INSERTs only; this keeps it so if someone widens the publication.
    if (!"c".equals(linha.path("__op").asString(""))) {
      return Optional.empty();
    }
    JsonNode ts = linha.path("__source_ts_ms");
    Instant commit = ts.isNumber() ? Instant.ofEpochMilli(ts.longValue()) : null;
    return Optional.of(
        switch (tabela) {
          case WEBHOOK_EVENTOS -> doEvento(linha, commit);
          case OUTBOX ->
              doEfeito(
                  new ChaveDoEfeito(texto(linha, "pedido_id"), texto(linha, "efeito")),
                  opcional(linha, "status"),
                  linha.path("total_centavos").isNumber()
                      ? linha.path("total_centavos").longValue()
                      : null,
                  opcional(linha, "cliente_email"),
                  instante(linha, "criado_em"),
                  commit);
        });
  }

  /** An outbox row as the picking system receives it, keyed by order, with its idempotency key. */
  Mensagem doEfeito(
      ChaveDoEfeito chave,
      String status,
      Long totalCentavos,
      String clienteEmail,
      Instant criadoEm,
      Instant commit) {
    ObjectNode valor = json.createObjectNode();
    valor.put("pedido_id", chave.pedidoId());
    valor.put("efeito", chave.efeito());
    valor.put("status", status);
    valor.put("total_centavos", totalCentavos);
    valor.put("cliente_email", clienteEmail);
    valor.put("criado_em", criadoEm.toString());
    ProducerRecord<String, String> registro =
        new ProducerRecord<>(topicos.efeitos(), chave.pedidoId(), json.writeValueAsString(valor));
    registro
        .headers()
        .add(
            new RecordHeader(
                CABECALHO_DE_IDEMPOTENCIA, chave.idempotencia().getBytes(StandardCharsets.UTF_8)));
    return new Mensagem(Tabela.OUTBOX, registro, chave, commit);
  }

  private Mensagem doEvento(JsonNode linha, Instant commit) {
    String recursoId = texto(linha, "recurso_id");
    ObjectNode valor = json.createObjectNode();
    valor.put("evento_id", texto(linha, "evento_id"));
    valor.put("recurso_id", recursoId);
    valor.put("tipo", texto(linha, "tipo"));
    // jsonb arrives as JSON text inside a string; consumers get the object itself.
    valor.set("payload", ler(texto(linha, "payload"), "payload"));
    valor.put("recebido_em", instante(linha, "recebido_em").toString());
    return new Mensagem(
        Tabela.WEBHOOK_EVENTOS,
        new ProducerRecord<>(topicos.eventos(), recursoId, json.writeValueAsString(valor)),
        null,
        commit);
  }

  private JsonNode ler(String texto, String origem) {
    try {
      return json.readTree(texto);
    } catch (JacksonException e) {
      throw new MudancaIlegivelException("not JSON in " + origem, e);
    }
  }

  private static String texto(JsonNode linha, String campo) {
    JsonNode valor = linha.path(campo);
    if (!valor.isString()) {
      throw new MudancaIlegivelException("captured row without " + campo + ": " + linha);
    }
    return valor.stringValue();
  }

  private static String opcional(JsonNode linha, String campo) {
    JsonNode valor = linha.path(campo);
    return valor.isString() ? valor.stringValue() : null;
  }

  private static Instant instante(JsonNode linha, String campo) {
    try {
      return OffsetDateTime.parse(texto(linha, campo)).toInstant();
    } catch (DateTimeParseException e) {
      throw new MudancaIlegivelException("unreadable " + campo + " in " + linha, e);
    }
  }
}
