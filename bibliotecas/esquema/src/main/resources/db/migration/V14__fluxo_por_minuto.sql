-- Why: the status page charts the flow over time (received, applied and published per minute, the
-- apply time's p50/p99, the backlog and its oldest age). Counted from the tables at each page load,
-- the per-minute series would scan every row of the window shown (a million rows an hour at a few
-- hundred events per second), and the backlog of an hour ago cannot be counted at all. So each
-- minute is summed once, here, a row per minute: the page reads at most a few hundred rows by
-- primary key, however large the inbox and however busy the hour.
-- Who writes what (README, "The status page"): every applier adds what it applied and its apply
-- times (from its own meters, every few seconds) and samples the backlog; one applier at a time
-- counts the events received in the last minutes from the inbox (a range on recebido_em); every
-- relay adds the effects it published. Additions are upserts of a few seconds' worth: no row is
-- written per event, and nothing touches the apply or the webhook path.
CREATE TABLE fluxo_por_minuto (
  minuto timestamptz PRIMARY KEY, -- the minute's start
  recebidos bigint, -- events stored in the inbox in this minute; NULL until counted
  aplicados bigint NOT NULL DEFAULT 0, -- events applied (any result, any path)
  -- the same by result: {"aplicado": 110, "evento_antigo": 3, ...}; the page's results of the
  -- last 24 hours and its "applied in the last 5 minutes" are sums of these rows
  resultados jsonb NOT NULL DEFAULT '{}',
  publicados bigint NOT NULL DEFAULT 0, -- outbox rows acknowledged by Kafka
  -- Applies by time taken: element i counts the applies of this minute that took at most the i-th
  -- bound of FluxoPorMinuto.LIMITES_MS (cumulative, as a Prometheus histogram's buckets).
  aplicacao_ms bigint[] NOT NULL DEFAULT '{}',
  pendentes bigint, -- inbox rows not yet applied, as last sampled in this minute
  pendente_idade_s double precision -- the oldest of them, its age in seconds then
);

GRANT SELECT, INSERT, UPDATE, DELETE ON fluxo_por_minuto TO pedidos_aplicador;
GRANT SELECT, INSERT, UPDATE ON fluxo_por_minuto TO pedidos_publicador;
