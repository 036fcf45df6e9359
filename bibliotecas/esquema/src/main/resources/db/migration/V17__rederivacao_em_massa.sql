-- Why: an operator could re-derive one order from its page, or replay partitions of loja.eventos
-- from the command line, but not "every order that received an order.paid yesterday afternoon" or
-- "these 300 orders the store sent us". A bulk re-derivation is a background job: a dry run first
-- (what would change, computed by the same re-derivation in a transaction rolled back), then, once
-- confirmed, the run itself, paced, which can be paused, cancelled and resumed, and goes on where
-- it stopped after a restart, on whichever applier holds the job lease (an advisory lock of a live
-- session, as the reconciliation round's). Its state lives here, so any instance can continue it.

CREATE TABLE rederivacoes_em_massa (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  operador text NOT NULL, -- who asked for it; the page and the command line both authenticate
  filtro text NOT NULL, -- the filter in words, as the operator gave it
  -- simulando (the dry run, queued or under way), simulado (dry run done, waiting to be
  -- confirmed), executando (the run, queued or under way), pausado, cancelado, concluido
  estado text NOT NULL CHECK (estado IN
    ('simulando', 'simulado', 'executando', 'pausado', 'cancelado', 'concluido')),
  pedidos_por_segundo integer NOT NULL CHECK (pedidos_por_segundo > 0),
  pedidos_total integer NOT NULL, -- the set, frozen when the job was created
  fatos_total bigint NOT NULL, -- the stored events of those orders
  -- The dry run's progress and counts: the last order done (orders go in id order), how many
  -- done, whose state or verdicts would change, effects that would be born, and failures.
  simulacao_cursor text,
  simulacao_feitos integer NOT NULL DEFAULT 0,
  simulacao_mudados integer NOT NULL DEFAULT 0,
  simulacao_efeitos integer NOT NULL DEFAULT 0,
  simulacao_falhas integer NOT NULL DEFAULT 0,
  -- The same for the run.
  execucao_cursor text,
  execucao_feitos integer NOT NULL DEFAULT 0,
  execucao_mudados integer NOT NULL DEFAULT 0,
  execucao_efeitos integer NOT NULL DEFAULT 0,
  execucao_falhas integer NOT NULL DEFAULT 0,
  executado_por text, -- the instance that last advanced it
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  terminado_em timestamptz
);

-- The runner looks for the oldest job with work to do.
CREATE INDEX rederivacoes_em_massa_ativas ON rederivacoes_em_massa (id)
  WHERE estado IN ('simulando', 'executando');

-- The orders of each job, resolved from its filter when it was created: the dry run and the run
-- walk the same set, in key order, from the job's cursor.
CREATE TABLE rederivacoes_em_massa_pedidos (
  lote bigint NOT NULL REFERENCES rederivacoes_em_massa ON DELETE CASCADE,
  pedido_id text NOT NULL,
  PRIMARY KEY (lote, pedido_id)
);

-- What changed, or would change, per order: the order's row before and after (its email only as
-- a digest, as the audit of a single re-derivation), the verdicts, the effects born. Only the
-- first changes of each phase are kept (aplicador.rederivacao-em-massa.mudancas-guardadas); the
-- counts on the job cover them all.
CREATE TABLE rederivacoes_em_massa_mudancas (
  lote bigint NOT NULL REFERENCES rederivacoes_em_massa ON DELETE CASCADE,
  fase text NOT NULL CHECK (fase IN ('simulacao', 'execucao')),
  pedido_id text NOT NULL,
  antes text,
  depois text,
  efeitos text, -- effects born, or the failure
  PRIMARY KEY (lote, fase, pedido_id)
);

-- The applier's role: create and advance jobs, fill and read their sets and changes. No deletes:
-- a job stays as the record of what was done (its audit row says the same in one line).
GRANT SELECT, INSERT, UPDATE ON rederivacoes_em_massa TO pedidos_aplicador;
GRANT SELECT, INSERT ON rederivacoes_em_massa_pedidos, rederivacoes_em_massa_mudancas
  TO pedidos_aplicador;
