-- Why: reconciliation stores what the store's orders API knows, and some of those facts no webhook
-- ever delivered: the store lost them. They were only a count in a metric (new facts the inbox
-- lacked, which also counts facts a webhook did deliver under its own id). Operators need each lost
-- webhook as an anomaly of its own (webhook_nao_entregue): which order, which event, when the API
-- revealed it and how long after the fact, and whether its webhook came later after all (then it
-- was late, not lost), so they can measure the store's delivery and send it the list of a day's
-- undelivered events.
--
-- The applier writes a row when it first applies a fact read from the API and the inbox holds no
-- webhook of the same order, status and version (AplicadorDeEventos, under the order's lock), and
-- marks the row when such a webhook is first applied later. No personal data: ids, types,
-- versions and instants only (docs/ciclo-de-vida-dos-dados.md).
CREATE TABLE webhooks_nao_entregues (
  evento_id text PRIMARY KEY, -- the API fact's inbox key: api:<order>:<version>:<status>
  pedido_id text NOT NULL,
  tipo text NOT NULL, -- the webhook the store should have sent: order.paid, order.shipped...
  versao bigint NOT NULL, -- the fact's version as the fold orders it (VersaoDoFato)
  sequencia bigint, -- the API's sequence, when it is an integer
  fato_em timestamptz, -- the fact's own time (the API's updated_at); NULL when unreadable
  revelado_em timestamptz NOT NULL, -- when reconciliation stored the fact (its inbox recebido_em)
  webhook_evento_id text, -- the webhook of the same fact that arrived later: late, not lost
  webhook_recebido_em timestamptz -- when that webhook was stored
);

-- Every query of the anomalies page and of a day's export is a range of revelado_em.
CREATE INDEX webhooks_nao_entregues_revelados ON webhooks_nao_entregues (revelado_em);

-- The applier records and marks; nothing else reads or writes them. Rows are never rewritten
-- except to say that the webhook came.
GRANT SELECT, INSERT ON webhooks_nao_entregues TO pedidos_aplicador;
GRANT UPDATE (webhook_evento_id, webhook_recebido_em) ON webhooks_nao_entregues TO pedidos_aplicador;
