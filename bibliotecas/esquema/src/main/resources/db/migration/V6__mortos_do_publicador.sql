-- Why: a captured row the relay cannot publish (it cannot be encoded, or Kafka refuses that one
-- record for good: too large, malformed) must neither stop the stream, which would hold back every
-- row after it forever, nor be skipped without a trace. The relay records it here, committed before
-- it lets Debezium's position move past it, and streams on; an operator fixes the cause and
-- re-publishes it (`republicar-mortos`). Inbox rows stay pending in webhook_eventos and the
-- applier's sweep still applies them; outbox rows stay unsent, and the relay's fallback skips them
-- while they are dead-lettered here.
-- One open row per captured row: the engine may meet the same row again after a restart, which
-- bumps tentativas instead of adding a row. A re-published row is closed (republicado_em) and kept
-- as history; if it fails again later it opens a new one.
CREATE TABLE publicador_mortos (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tabela text NOT NULL CHECK (tabela IN ('webhook_eventos', 'outbox')),
  chave jsonb NOT NULL, -- the row's primary key: {"evento_id": ...} or {"pedido_id": ..., "efeito": ...}
  lsn pg_lsn, -- the row's WAL position; null when the fallback (read from the table) failed
  motivo text NOT NULL, -- the latest failure
  tentativas integer NOT NULL DEFAULT 1,
  registrado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  republicado_em timestamptz
);

CREATE UNIQUE INDEX publicador_mortos_abertos
  ON publicador_mortos (tabela, chave) WHERE republicado_em IS NULL;
