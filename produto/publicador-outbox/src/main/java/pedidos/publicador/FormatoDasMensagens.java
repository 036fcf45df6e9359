package pedidos.publicador;

import io.debezium.embedded.EmbeddedEngineChangeEvent;
import io.debezium.engine.ChangeEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.springframework.stereotype.Component;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.RegistroDeEfeito;
import pedidos.contrato.RegistroDeEvento;
import pedidos.contrato.RegistroIlegivelException;
import pedidos.contrato.TopicosDoKafka;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The edge between captured rows and Kafka messages: the one place that knows the row shapes
 * Debezium hands over. The message shapes consumers read are the contract's ({@link
 * FormatoDosRegistros}), written here and read there with the same codec.
 *
 * <p>Messages are self-contained (a consumer or a replay needs nothing else) and the same whether a
 * row comes from the stream or from the fallback re-send.
 */
@Component
class FormatoDasMensagens {

  /**
   * The parser of captured rows, which carry the payload as one string: the contract's, sized from
   * the input envelope and keeping numbers exactly. Whatever the receptor accepts passes here; a
   * row written around the receptor and outside the envelope fails here, deterministically, and is
   * dead-lettered.
   */
  private final JsonMapper json = FormatoDosRegistros.json();

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
   * The table and coordinates of a captured change; empty for what is not a row of a captured table
   * (heartbeats, logical decoding messages). Never fails: a row that cannot be encoded is still
   * recorded where it is.
   */
  Optional<OrigemDaLinha> origem(ChangeEvent<String, String> mudanca) {
    Tabela tabela;
    if (destinoDoInbox.equals(mudanca.destination())) {
      tabela = Tabela.WEBHOOK_EVENTOS;
    } else if (destinoDoOutbox.equals(mudanca.destination())) {
      tabela = Tabela.OUTBOX;
    } else {
      return Optional.empty();
    }
    // Debezium's key of a row is its primary key as a JSON object: the same shape as
    // chaveDoEvento and ChaveDoEfeito.json, so the dead-letter table sees one key per row.
    String chave = mudanca.key() != null ? mudanca.key() : "{}";
    return Optional.of(new OrigemDaLinha(tabela, chave, lsn(mudanca)));
  }

  /**
   * The message for a captured change; empty for what is not a new row of a captured table
   * (heartbeats, logical decoding messages, and any operation other than an INSERT).
   *
   * @throws MudancaIlegivelException when a row cannot be encoded (see {@link FalhasDaLinha})
   */
  Optional<Mensagem> daMudanca(ChangeEvent<String, String> mudanca) {
    Optional<OrigemDaLinha> origem = origem(mudanca);
    if (origem.isEmpty() || mudanca.value() == null) {
      return Optional.empty(); // not a captured table's row, or a tombstone
    }
    JsonNode linha = ler(mudanca.value(), mudanca.destination());
    // The publication carries INSERTs only; this keeps it so if someone widens the publication.
    if (!"c".equals(linha.path("__op").asString(""))) {
      return Optional.empty();
    }
    JsonNode ts = linha.path("__source_ts_ms");
    Instant commit = ts.isNumber() ? Instant.ofEpochMilli(ts.longValue()) : null;
    return Optional.of(
        switch (origem.get().tabela()) {
          case WEBHOOK_EVENTOS ->
              doEvento(
                  texto(linha, "evento_id"),
                  texto(linha, "recurso_id"),
                  texto(linha, "tipo"),
                  texto(linha, "payload"),
                  instante(linha, "recebido_em"),
                  origem.get().lsn(),
                  commit);
          case OUTBOX ->
              doEfeito(
                  new ChaveDoEfeito(texto(linha, "pedido_id"), texto(linha, "efeito")),
                  opcional(linha, "status"),
                  linha.path("total_centavos").isNumber()
                      ? linha.path("total_centavos").longValue()
                      : null,
                  instante(linha, "criado_em"),
                  origem.get().lsn(),
                  commit);
        });
  }

  /** The key of an inbox row, as {@link #origem} records it. */
  static String chaveDoEvento(String eventoId) {
    ObjectNode chave = FormatoDosRegistros.json().createObjectNode();
    chave.put("evento_id", eventoId);
    return FormatoDosRegistros.json().writeValueAsString(chave);
  }

  /**
   * An outbox row as the picking system receives it, keyed by order, with its idempotency key.
   *
   * <p>Without the customer's email, which the outbox row also holds: picking needs the order, its
   * status and total, never who bought it (the seed's effects were the order and the effect alone),
   * so no personal data reaches {@code separacao.efeitos}, its retention or the picking system
   * (SECURITY.md, "Personal data in Kafka").
   */
  Mensagem doEfeito(
      ChaveDoEfeito chave,
      String status,
      Long totalCentavos,
      Instant criadoEm,
      Long lsn,
      Instant commit) {
    String valor =
        escrever(
            () ->
                FormatoDosRegistros.escrever(
                    new RegistroDeEfeito(
                        chave.pedidoId(), chave.efeito(), status, totalCentavos, criadoEm)));
    ProducerRecord<String, String> registro =
        new ProducerRecord<>(topicos.efeitos(), chave.pedidoId(), valor);
    registro
        .headers()
        .add(
            new RecordHeader(
                TopicosDoKafka.CABECALHO_DE_IDEMPOTENCIA,
                chave.idempotencia().getBytes(StandardCharsets.UTF_8)));
    return new Mensagem(
        new OrigemDaLinha(Tabela.OUTBOX, chave.json(), lsn), registro, chave, commit);
  }

  /**
   * An inbox row as the applier receives it, keyed by order, with the payload as a JSON object.
   *
   * @param payload PostgreSQL's text of the stored {@code jsonb}
   */
  Mensagem doEvento(
      String eventoId,
      String recursoId,
      String tipo,
      String payload,
      Instant recebidoEm,
      Long lsn,
      Instant commit) {
    // jsonb arrives as JSON text inside a string; consumers get the object itself.
    String valor =
        escrever(
            () ->
                FormatoDosRegistros.escrever(
                    new RegistroDeEvento(eventoId, recursoId, tipo, payload, recebidoEm)));
    return new Mensagem(
        new OrigemDaLinha(Tabela.WEBHOOK_EVENTOS, chaveDoEvento(eventoId), lsn),
        new ProducerRecord<>(topicos.eventos(), recursoId, valor),
        null,
        commit);
  }

  private static String escrever(Supplier<String> registro) {
    try {
      return registro.get();
    } catch (RegistroIlegivelException e) {
      throw new MudancaIlegivelException("cannot write the record: " + e.getMessage(), e);
    }
  }

  /** The row's LSN, from the engine's source record; null if this engine does not expose it. */
  private static Long lsn(ChangeEvent<String, String> mudanca) {
    if (mudanca instanceof EmbeddedEngineChangeEvent<?, ?, ?> evento
        && evento.sourceRecord() != null
        && evento.sourceRecord().sourceOffset() != null
        && evento.sourceRecord().sourceOffset().get("lsn") instanceof Number lsn) {
      return lsn.longValue();
    }
    return null;
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
