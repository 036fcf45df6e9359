-- Why: the applier folds all facts of an order in version order on every apply (that is what makes
-- the state independent of arrival order), so it reads webhook_eventos by recurso_id under the
-- order's advisory lock. Without this index every apply would scan the whole inbox.
CREATE INDEX webhook_eventos_por_pedido ON webhook_eventos (recurso_id);

-- Why: an invalid fact (an unparseable instant, an unknown status) is settled for good with
-- resultado = 'fato_invalido'; ops need to know what was wrong with it without re-parsing payloads.
ALTER TABLE webhook_eventos ADD COLUMN motivo text;
