package pedidos.receptor.gravacao;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import pedidos.receptor.evento.EventoRecebido;

/**
 * The SQL of {@code webhook_eventos} as the receptor sees it: insert, and compare with what is
 * already there. Every statement runs on its own in autocommit, so when one returns its rows are
 * committed (and durable, with {@code synchronous_commit=on}).
 */
@Component
final class CaixaDeEntrada {

  /** One row: the same statement the benchmark gives pgbench. */
  static final String INSERIR_UM =
      """
      INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
      VALUES (?, ?, ?, ?::jsonb)
      ON CONFLICT (evento_id) DO NOTHING
      RETURNING evento_id
      """;

  /**
   * A group commit: many rows, one statement, one transaction, one WAL flush. The arrays keep one
   * SQL text (and one server-side prepared statement) for every batch size. RETURNING names the
   * rows that were inserted; the others already existed.
   */
  static final String INSERIR_LOTE =
      """
      INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
      SELECT evento_id, recurso_id, tipo, payload::jsonb
        FROM unnest(?::text[], ?::text[], ?::text[], ?::text[])
             AS lote (evento_id, recurso_id, tipo, payload)
      ON CONFLICT (evento_id) DO NOTHING
      RETURNING evento_id
      """;

  /**
   * For rows that were not inserted: is the stored body equal, as jsonb, to the one received? A
   * received body that PostgreSQL refuses as jsonb fails the whole statement with a data exception
   * (class 22); the caller then asks again row by row. (PostgreSQL 16's {@code pg_input_is_valid}
   * would avoid that, but 15 is supported, and the receptor refuses bodies outside the input
   * envelope before they get here, so the fallback is rare.) Once retention has redacted the stored
   * payload, {@code mesmo_corpo} compares the digest it kept of the body as first stored (migration
   * V12), so a redelivery of an old event is still a duplicate.
   */
  static final String COMPARAR =
      """
      SELECT lote.ordem,
             gravado.evento_id IS NOT NULL AS existe,
             mesmo_corpo(gravado.payload, gravado.payload_sha256, lote.payload::jsonb) AS igual
        FROM unnest(?::int[], ?::text[], ?::text[]) AS lote (ordem, evento_id, payload)
        LEFT JOIN webhook_eventos AS gravado ON gravado.evento_id = lote.evento_id
      """;

  private final JdbcClient jdbc;

  CaixaDeEntrada(JdbcClient jdbcDoReceptor) {
    this.jdbc = jdbcDoReceptor;
  }

  /** Inserts the rows (distinct ids) and returns the ids that were new. */
  Set<String> inserir(List<EventoRecebido> eventos) {
    if (eventos.size() == 1) {
      EventoRecebido evento = eventos.get(0);
      return new HashSet<>(
          jdbc.sql(INSERIR_UM)
              .param(evento.eventoId())
              .param(evento.recursoId())
              .param(evento.tipo())
              .param(evento.json())
              .query(String.class)
              .list());
    }
    int n = eventos.size();
    String[] ids = new String[n];
    String[] recursos = new String[n];
    String[] tipos = new String[n];
    String[] payloads = new String[n];
    for (int i = 0; i < n; i++) {
      EventoRecebido evento = eventos.get(i);
      ids[i] = evento.eventoId();
      recursos[i] = evento.recursoId();
      tipos[i] = evento.tipo();
      payloads[i] = evento.json();
    }
    return new HashSet<>(
        jdbc.sql(INSERIR_LOTE)
            .param(ids)
            .param(recursos)
            .param(tipos)
            .param(payloads)
            .query(String.class)
            .list());
  }

  /**
   * One answer per event, in the order given; throws a data exception (SQLState class 22) when a
   * body is not valid jsonb.
   */
  List<Comparacao> comparar(List<EventoRecebido> eventos) {
    int n = eventos.size();
    Integer[] ordens = new Integer[n];
    String[] ids = new String[n];
    String[] payloads = new String[n];
    for (int i = 0; i < n; i++) {
      ordens[i] = i;
      ids[i] = eventos.get(i).eventoId();
      payloads[i] = eventos.get(i).json();
    }
    List<Comparacao> respostas = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      respostas.add(Comparacao.AUSENTE);
    }
    jdbc.sql(COMPARAR)
        .param(ordens)
        .param(ids)
        .param(payloads)
        .query(
            linha -> {
              Comparacao comparacao;
              if (!linha.getBoolean("existe")) {
                comparacao = Comparacao.AUSENTE;
              } else {
                comparacao = linha.getBoolean("igual") ? Comparacao.IGUAL : Comparacao.DIFERENTE;
              }
              respostas.set(linha.getInt("ordem"), comparacao);
            });
    return respostas;
  }

  enum Comparacao {
    IGUAL,
    DIFERENTE,
    /** No row with that id: it was never inserted (should not happen after a conflict). */
    AUSENTE
  }
}
