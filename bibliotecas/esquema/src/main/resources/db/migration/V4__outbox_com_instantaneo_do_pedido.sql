-- Why: the picking system needs the order as it was when the effect was born (status, total,
-- email), not as it is when the relay happens to publish it. The applier writes this snapshot in
-- the same transaction as the effect, so the relay publishes the outbox row alone, self-contained.
ALTER TABLE outbox
  ADD COLUMN status text,
  ADD COLUMN total_centavos bigint,
  ADD COLUMN cliente_email text;

-- Why: the relay's fallback re-sends rows still unsent after a while; this keeps that scan cheap
-- however large the outbox grows.
CREATE INDEX outbox_pendentes ON outbox (criado_em) WHERE enviado_em IS NULL;
