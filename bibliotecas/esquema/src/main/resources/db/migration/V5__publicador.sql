-- Why: the relay (publicador-outbox) streams new inbox and outbox rows through logical replication.
-- The publication is created here, not by Debezium (publication.autocreate.mode=disabled), so the
-- relay needs no ownership of the tables and the set of captured tables is reviewed like any
-- schema change. Only INSERTs are published: the relay forwards new facts and new effects, and the
-- applier's UPDATEs of aplicado_em or the relay's own UPDATEs of enviado_em never enter the stream.
CREATE PUBLICATION publicador_outbox FOR TABLE webhook_eventos, outbox WITH (publish = 'insert');

-- Why: Debezium's position in the stream (its "offsets") must survive the relay and live with the
-- data it describes. Kept in the same database, a restore brings back offsets and rows together,
-- and a standby on another machine resumes from the position the active relay committed. One row
-- per key of Kafka Connect's offset map, under the engine's name (the replication slot).
CREATE TABLE publicador_offsets (
  nome text NOT NULL,
  chave bytea NOT NULL,
  valor bytea NOT NULL,
  gravado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (nome, chave)
);
