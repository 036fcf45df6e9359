-- Why: ops could see totals and the latest anomalies, but not answer "why is order X in this state,
-- and did the picking system get what it should?", nor act on what they found without a shell on
-- the database. The applier's status page now explains one order (its facts, the canonical fold,
-- its effects) and offers a few safe actions, each written to an audit table. This migration gives
-- those pages the indexes their lookups need (the inbox has millions of rows) and the applier's
-- role the narrow grants the actions need, nothing more.

-- Where each fact came from on loja.eventos: the listener records the record's partition and
-- offset when it applies the event. NULL when another path applied it first (the sweep,
-- reconciliation, a replay) or before this migration. Nullable without a default: adding them
-- rewrites nothing.
ALTER TABLE webhook_eventos
  ADD COLUMN IF NOT EXISTS kafka_particao integer,
  ADD COLUMN IF NOT EXISTS kafka_offset bigint;

-- Finding an order by its customer's email, as the erasure command (ApagamentoDeCliente) already
-- compares it: case-insensitively. The page searches by event id (the inbox's key) and by order id
-- (webhook_eventos_por_pedido, V2) with indexes that exist already.
-- Not CONCURRENTLY (Flyway holds a transaction): on a large existing table build it by hand first
-- with CREATE INDEX CONCURRENTLY and the same name and definition (README, "Operations runbook").
CREATE INDEX IF NOT EXISTS pedidos_por_email ON pedidos (lower(cliente_email));

-- Every action taken from the status page: who, when, what, on what, and how it ended, including
-- the attempts that changed nothing (a second click) or were refused. Only ever appended to.
CREATE TABLE operacoes_auditadas (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  operador text NOT NULL, -- the authenticated ops user
  acao text NOT NULL, -- rederivar_pedido, republicar_efeito, liberar_quarentena, republicar_morto
  alvo text NOT NULL, -- what it acted on: the order id, order id/effect, quarantine id, dead letter id
  pedido_id text, -- the order concerned, when there is one: the order's page lists its actions
  resultado text NOT NULL, -- feito, nada_a_fazer, recusado, falhou
  detalhe text, -- what it did or why not, in words
  feita_em timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX operacoes_auditadas_recentes ON operacoes_auditadas (feita_em);
CREATE INDEX operacoes_auditadas_por_pedido ON operacoes_auditadas (pedido_id, feita_em);

-- A quarantined body released for storage once its cause is fixed: the event it became. Kept, not
-- deleted, so a second release finds it released (retention deletes it in time, as any other).
ALTER TABLE webhook_quarentena
  ADD COLUMN liberado_em timestamptz,
  ADD COLUMN liberado_como text; -- the evento_id stored in webhook_eventos

-- A dead letter an operator asked to re-publish from the status page. The applier has no ACL on
-- the relay's topics (least privilege): it only records the request here, and the relay, which
-- owns the topics, re-publishes requested letters (publicador-outbox, README "Operations runbook").
ALTER TABLE publicador_mortos ADD COLUMN republicacao_pedida_em timestamptz;

-- The order's page lists the dead letters of its events and effects, open or closed.
CREATE INDEX publicador_mortos_por_chave ON publicador_mortos (tabela, chave);

-- The applier's role, for the actions and nothing else:
-- - the audit table: append and read, never rewrite;
GRANT SELECT, INSERT ON operacoes_auditadas TO pedidos_aplicador;
-- - re-publish one effect: clear its enviado_em, so the relay's fallback sends it again;
GRANT UPDATE (enviado_em) ON outbox TO pedidos_aplicador;
-- - release a quarantined body: it inserts into the inbox already (V10); mark the row released;
GRANT UPDATE (liberado_em, liberado_como) ON webhook_quarentena TO pedidos_aplicador;
-- - re-publish a dead letter: read the letters, and ask for the re-publication, nothing else.
GRANT SELECT ON publicador_mortos TO pedidos_aplicador;
GRANT UPDATE (republicacao_pedida_em) ON publicador_mortos TO pedidos_aplicador;
