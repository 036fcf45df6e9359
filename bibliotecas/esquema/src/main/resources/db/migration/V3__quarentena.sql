-- Why: a body that the provider signed with our secret but that cannot be stored as an event (not
-- JSON, not an object, no id, a \u0000 that jsonb rejects, a number jsonb cannot hold...) is still
-- something the provider sent. The receptor answers 400 and keeps the exact bytes here, with the
-- reason, so nothing is lost: ops can see what was wrong, fix the cause and replay it. Unsigned
-- bodies never land here (anyone could fill the table).
-- Keyed by the digest of the body: a provider that keeps redelivering the same bad body bumps a
-- counter instead of adding a row per attempt.
CREATE TABLE webhook_quarentena (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  corpo bytea NOT NULL, -- os bytes exatos recebidos, assinados pelo provedor
  corpo_sha256 bytea GENERATED ALWAYS AS (sha256(corpo)) STORED UNIQUE,
  motivo text NOT NULL,
  evento_id text, -- quando o corpo deixou ler o id
  recebido_em timestamptz NOT NULL DEFAULT now(),
  ultimo_recebimento_em timestamptz NOT NULL DEFAULT now(),
  recebimentos integer NOT NULL DEFAULT 1
);
