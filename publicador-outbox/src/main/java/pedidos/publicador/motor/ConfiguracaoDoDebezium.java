package pedidos.publicador.motor;

import java.util.Properties;
import org.springframework.stereotype.Component;
import pedidos.publicador.configuracao.ConexaoDoBanco;
import pedidos.publicador.configuracao.PublicadorProperties;
import pedidos.publicador.linhas.Tabela;

/** The engine's properties, derived from the relay's configuration and the database connection. */
@Component
class ConfiguracaoDoDebezium {

  // Written into the WAL at every heartbeat, on the connector's own connection. A heartbeat alone
  // moves nothing while the captured tables are quiet and others are written (the slot stays
  // behind and the WAL grows); a logical message travels through the slot and advances it.
  static final String ACAO_DO_HEARTBEAT =
      "SELECT pg_logical_emit_message(false, 'heartbeat', now()::varchar)";

  /** The driver's socket timeout on Debezium's connections. */
  static final java.time.Duration ESPERA_DO_SOCKET = java.time.Duration.ofSeconds(20);

  private final PublicadorProperties propriedades;
  private final ConexaoDoBanco banco;

  ConfiguracaoDoDebezium(PublicadorProperties propriedades, ConexaoDoBanco banco) {
    this.propriedades = propriedades;
    this.banco = banco;
  }

  Properties propriedades() {
    PublicadorProperties.Debezium debezium = propriedades.debezium();
    Properties p = new Properties();
    // The engine's name keys the stored offsets: one position per slot, shared by every instance.
    p.setProperty("name", propriedades.slot());
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    p.setProperty("topic.prefix", propriedades.prefixo());

    p.setProperty("offset.storage", ArmazemDeOffsets.class.getName());
    p.setProperty(ArmazemDeOffsets.URL, banco.jdbcUrl());
    p.setProperty(ArmazemDeOffsets.USUARIO, banco.usuario());
    if (banco.senha() != null) {
      p.setProperty(ArmazemDeOffsets.SENHA, banco.senha());
    }
    p.setProperty("offset.flush.interval.ms", millis(debezium.intervaloDeFlush()));
    p.setProperty("offset.flush.timeout.ms", "10000");

    p.setProperty("database.hostname", banco.host());
    p.setProperty("database.port", Integer.toString(banco.porta()));
    p.setProperty("database.dbname", banco.banco());
    p.setProperty("database.user", banco.usuario());
    if (banco.senha() != null) {
      p.setProperty("database.password", banco.senha());
    }

    // Bounds on Debezium's two connections (its JDBC one and the replication stream), passed to the
    // driver through database.*. Connect and keepalive as everywhere. The socket timeout is safe on
    // the replication stream: while it idles, the driver only peeks for pending data (with a 1 ms
    // timeout of its own) and never blocks on a read; it bounds the reads that do block (a message
    // half received, the answer to closing the stream). Closing a stream whose network went silent
    // is the slow step of stopping an engine that lost its lease, so the bound is short: 20 s. The
    // one legitimate long wait, creating the slot (it waits for the transactions then open, each
    // of this system's bounded by idle_in_transaction_session_timeout and statement_timeout), only
    // happens at the first start; cut short, it fails the engine and the supervisor's back-off
    // tries again.
    p.setProperty(
        "database.connectTimeout", Long.toString(ConexaoDoBanco.ESPERA_DA_CONEXAO.toSeconds()));
    p.setProperty("database.socketTimeout", Long.toString(ESPERA_DO_SOCKET.toSeconds()));
    p.setProperty("database.tcpKeepAlive", "true");
    // Only on the JDBC connection (the heartbeat's logical message, slot and schema queries):
    // initial statements never run on the replication connection, where a statement timeout could
    // cancel START_REPLICATION itself; a walsender whose client went silent is ended by the
    // server's wal_sender_timeout, or at once by the next holder of the lease. Debezium raises the
    // statement timeout around slot creation by itself.
    p.setProperty(
        "database.initial.statements",
        "SET statement_timeout = 30000;SET idle_in_transaction_session_timeout = "
            + ConexaoDoBanco.TRANSACAO_OCIOSA.toMillis());

    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", propriedades.slot());
    p.setProperty("publication.name", propriedades.publicacao());
    p.setProperty("publication.autocreate.mode", "disabled");
    p.setProperty(
        "table.include.list",
        propriedades.esquema()
            + "."
            + Tabela.WEBHOOK_EVENTOS.nome()
            + ","
            + propriedades.esquema()
            + "."
            + Tabela.OUTBOX.nome());
    // Rows written before the slot existed are the fallback's business, not a snapshot's.
    p.setProperty("snapshot.mode", "no_data");
    // The slot is authoritative. Behind the stored offset (a crash between storing and confirming)
    // it replays: duplicates. Ahead of it (a restored database, a recreated slot) the WAL in
    // between is gone anyway: the engine starts instead of refusing forever, and the fallback
    // re-sends the outbox rows of the gap.
    p.setProperty("offset.mismatch.strategy", "trust_slot");
    p.setProperty("poll.interval.ms", millis(debezium.intervaloDePoll()));
    p.setProperty("heartbeat.interval.ms", millis(debezium.intervaloDeHeartbeat()));
    p.setProperty("heartbeat.action.query", ACAO_DO_HEARTBEAT);
    // A standby taking over may find the slot still held for an instant by the walsender of the
    // relay that just died: retry briefly, then let the supervisor's back-off take over.
    p.setProperty("slot.max.retries", "6");
    p.setProperty("slot.retry.delay.ms", "500");
    // No retries inside the engine (by default it reconnects forever, 10 s apart, while reporting
    // nothing): a lost connection stops it, and the supervisor restarts it with its back-off, so
    // there is one restart path and the health check tells the truth.
    p.setProperty("errors.max.retries", "0");

    // No transform and no converter: the consumer reads the change envelope as the connector builds
    // it (FormatoDasMensagens), INSERTs by its op, the commit time from its source block.
    p.setProperty("tombstones.on.delete", "false");

    debezium.propriedades().forEach(p::setProperty);
    return p;
  }

  private static String millis(java.time.Duration duracao) {
    return Long.toString(duracao.toMillis());
  }
}
