-- Why: an inbox row whose apply keeps failing for an unknown reason (a bug, a constraint the data
-- breaks) was retried by every sweep round forever, and the sweep took the oldest pending rows
-- first, so a few hundred such rows held every newer row behind them. The applier now counts the
-- row's failed attempts here, durably (an in-memory count resets at every restart), waits longer
-- after each failure, and after a few unknown failures settles the row with
-- resultado = 'falha_de_aplicacao' and the failure in motivo, where ops see it and replay re-tries
-- it. Transient failures (the database restarting, a lock timeout) only delay the next attempt.
ALTER TABLE webhook_eventos
  ADD COLUMN tentativas integer NOT NULL DEFAULT 0, -- falhas desconhecidas ate aqui
  ADD COLUMN proxima_tentativa_em timestamptz; -- NULL: nunca falhou

-- The sweep takes rows that never failed first, then failed rows whose next attempt is due, so
-- failing rows can never hold a round's batch against newer ones.
CREATE INDEX webhook_eventos_pendentes_por_tentativa
  ON webhook_eventos (proxima_tentativa_em NULLS FIRST, recebido_em) WHERE aplicado_em IS NULL;
