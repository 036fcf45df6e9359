-- Why: the ops status page (PainelDeOperacoes) must not scan the whole inbox at every refresh.
-- Its windows over recent events ("received in the last 24 hours") read only the blocks a BRIN
-- index on recebido_em points to: rows arrive in recebido_em order, so the index stays a few
-- pages and its upkeep on insert is negligible (recebido_em is never updated). Its latest
-- anomalies read a partial index that holds only anomalous rows, so it costs an apply nothing
-- unless the apply produces an anomaly.
-- Not CONCURRENTLY: Flyway holds its lock in a transaction, which a concurrent build would wait
-- for forever. Building them blocks writes to the inbox for as long as a scan of it takes; on a
-- large existing inbox, create them by hand first with CREATE INDEX CONCURRENTLY and the same
-- names (README, "Operations runbook"), and this migration does nothing.
CREATE INDEX IF NOT EXISTS webhook_eventos_recebido_em_brin
  ON webhook_eventos USING brin (recebido_em);

CREATE INDEX IF NOT EXISTS webhook_eventos_anomalias
  ON webhook_eventos (recebido_em)
  WHERE resultado IN ('regressao_de_terminal', 'fato_invalido', 'falha_de_aplicacao');
