package pedidos.publicador.linhas;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.springframework.stereotype.Component;
import pedidos.contrato.FormatoDosRegistros;
import pedidos.contrato.RegistroDeEfeito;
import pedidos.contrato.RegistroDeEvento;
import pedidos.contrato.RegistroIlegivelException;
import pedidos.contrato.TopicosDoKafka;
import pedidos.publicador.configuracao.PublicadorProperties;
import tools.jackson.databind.node.ObjectNode;

/**
 * The edge between captured rows and Kafka messages: the one place that knows the row shapes
 * Debezium hands over. The message shapes consumers read are the contract's ({@link
 * FormatoDosRegistros}), written here and read there with the same codec.
 *
 * <p>Rows are read from the engine's own records (Kafka Connect's {@link SourceRecord}: Debezium's
 * change envelope as a {@link Struct}), with no converter and no transform in between: turning each
 * row into JSON only to parse it back here cost the relay about a seventh of its CPU per event
 * (docs/BENCHMARKS.md, issue 27). The payload ({@code jsonb}) still arrives as PostgreSQL's text,
 * and is parsed once, by the contract's codec, when the message is written.
 *
 * <p>Messages are self-contained (a consumer or a replay needs nothing else) and the same whether a
 * row comes from the stream or from the fallback re-send.
 */
@Component
public class FormatoDasMensagens {

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
  public Optional<OrigemDaLinha> origem(SourceRecord mudanca) {
    return tabela(mudanca)
        .map(tabela -> new OrigemDaLinha(tabela, chave(mudanca.key()), lsn(mudanca)));
  }

  /** Whether a captured change is an outbox row: one comparison, no key written out. */
  public boolean doOutbox(SourceRecord mudanca) {
    return destinoDoOutbox.equals(mudanca.topic());
  }

  /** The captured table a change is a row of; empty for anything else. */
  private Optional<Tabela> tabela(SourceRecord mudanca) {
    if (destinoDoInbox.equals(mudanca.topic())) {
      return Optional.of(Tabela.WEBHOOK_EVENTOS);
    } else if (destinoDoOutbox.equals(mudanca.topic())) {
      return Optional.of(Tabela.OUTBOX);
    }
    return Optional.empty();
  }

  /**
   * The message for a captured change; empty for what is not a new row of a captured table
   * (heartbeats, logical decoding messages, and any operation other than an INSERT).
   *
   * @throws MudancaIlegivelException when a row cannot be encoded (see {@link FalhasDaLinha})
   */
  public Optional<Mensagem> daMudanca(SourceRecord mudanca) {
    // Not origem(): the key's JSON is for dead letters only, and the message makes its own.
    Optional<Tabela> captada = tabela(mudanca);
    if (captada.isEmpty() || !(mudanca.value() instanceof Struct envelope)) {
      return Optional.empty(); // not a captured table's row, or a tombstone
    }
    // The publication carries INSERTs only; this keeps it so if someone widens the publication.
    if (!"c".equals(campo(envelope, "op")) || !(campo(envelope, "after") instanceof Struct linha)) {
      return Optional.empty();
    }
    Instant commit =
        campo(envelope, "source") instanceof Struct fonte
                && campo(fonte, "ts_ms") instanceof Long ts
            ? Instant.ofEpochMilli(ts)
            : null;
    Tabela tabela = captada.get();
    Long lsn = lsn(mudanca);
    return Optional.of(
        switch (tabela) {
          case WEBHOOK_EVENTOS ->
              doEvento(
                  texto(linha, "evento_id", tabela),
                  texto(linha, "recurso_id", tabela),
                  texto(linha, "tipo", tabela),
                  texto(linha, "payload", tabela),
                  instante(linha, "recebido_em", tabela),
                  lsn,
                  commit);
          case OUTBOX ->
              doEfeito(
                  new ChaveDoEfeito(
                      texto(linha, "pedido_id", tabela), texto(linha, "efeito", tabela)),
                  campo(linha, "status") instanceof String status ? status : null,
                  campo(linha, "total_centavos") instanceof Number total ? total.longValue() : null,
                  instante(linha, "criado_em", tabela),
                  lsn,
                  commit);
        });
  }

  /** The key of an inbox row, as {@link #origem} records it. */
  public static String chaveDoEvento(String eventoId) {
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
  public Mensagem doEfeito(
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
  public Mensagem doEvento(
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

  /** The row's LSN, from the engine's source offset; null if this engine does not expose it. */
  private static Long lsn(SourceRecord mudanca) {
    return mudanca.sourceOffset() != null && mudanca.sourceOffset().get("lsn") instanceof Number lsn
        ? lsn.longValue()
        : null;
  }

  /**
   * A row's primary key as a JSON object, column by column in the key's order: the same shape as
   * {@link #chaveDoEvento} and {@link ChaveDoEfeito#json}, so the dead-letter table sees one key
   * per row whichever path recorded it.
   */
  private static String chave(Object chave) {
    ObjectNode json = FormatoDosRegistros.json().createObjectNode();
    if (chave instanceof Struct colunas) {
      for (Field coluna : colunas.schema().fields()) {
        Object valor = colunas.get(coluna);
        json.put(coluna.name(), valor == null ? null : valor.toString());
      }
    }
    return FormatoDosRegistros.json().writeValueAsString(json);
  }

  /** A field of a struct, null when absent: a Struct's own getters throw for an unknown name. */
  private static Object campo(Struct struct, String nome) {
    Field campo = struct.schema().field(nome);
    return campo == null ? null : struct.get(campo);
  }

  private static String texto(Struct linha, String campo, Tabela tabela) {
    if (!(campo(linha, campo) instanceof String valor)) {
      throw new MudancaIlegivelException("captured " + tabela.nome() + " row without " + campo);
    }
    return valor;
  }

  private static Instant instante(Struct linha, String campo, Tabela tabela) {
    String valor = texto(linha, campo, tabela);
    try {
      return OffsetDateTime.parse(valor).toInstant();
    } catch (DateTimeParseException e) {
      throw new MudancaIlegivelException(
          "unreadable " + campo + " in a captured " + tabela.nome() + " row: " + valor, e);
    }
  }
}
