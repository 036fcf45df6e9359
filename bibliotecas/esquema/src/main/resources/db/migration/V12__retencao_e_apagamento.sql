-- Why: nothing was ever deleted. The inbox kept every raw body (customers' emails) for ever, the
-- quarantine every signed body it could not read, the outbox every effect's snapshot of the
-- customer's email, and Brazil's LGPD obliges the store to delete or anonymise personal data once
-- it is no longer needed. The applier's retention job (Retencao) now redacts old inbox payloads,
-- deletes old quarantined bodies and old sent outbox rows; the erasure command (ApagamentoDeCliente)
-- anonymises one customer's email everywhere. What deduplication, the fold and replay read must
-- survive both, so they are defined here, once, for the receptor and the applier alike.

-- A redacted (or erased) payload no longer equals the body the store sent, yet a redelivery of that
-- body must still be a duplicate, not a conflict: before its payload is first rewritten, the row
-- keeps the digest of the body as first stored. NULL: the payload is still the body as stored.
-- (IF NOT EXISTS: on a large inbox the operator adds them first to build the index below
-- concurrently, README "Data lifecycle".)
ALTER TABLE webhook_eventos
  ADD COLUMN IF NOT EXISTS payload_sha256 bytea,
  ADD COLUMN IF NOT EXISTS redigido_em timestamptz; -- when retention reduced the payload

-- The digest of a body as stored: SHA-256 of PostgreSQL's text of the jsonb, which is the same for
-- every body equal as jsonb in key order, whitespace and duplicate keys. (Numbers are written as
-- sent: 1.0 and 1.00 are equal jsonb but different digests, so such a redelivery of a redacted
-- event is counted as a conflict; it is answered 200 either way and the first body stays.)
CREATE FUNCTION resumo_do_corpo(corpo jsonb) RETURNS bytea
  LANGUAGE sql STABLE PARALLEL SAFE
  RETURN sha256(convert_to(corpo::text, 'UTF8'));

-- The receptor's question for a redelivered id: is this the body already stored? Compared as jsonb
-- while the payload is the body as stored, by digest once it was rewritten.
CREATE FUNCTION mesmo_corpo(gravado jsonb, gravado_sha256 bytea, recebido jsonb) RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  RETURN CASE WHEN gravado_sha256 IS NULL THEN gravado = recebido
              ELSE gravado_sha256 = resumo_do_corpo(recebido) END;

-- What of a fact's customer_email a redacted payload keeps: the email only where it is the order's
-- email in force (so the fold still yields it, see README "Data lifecycle"); an invalid non-string
-- value as a placeholder that keeps the fact invalid without its content; otherwise nothing.
CREATE FUNCTION email_retido(valor jsonb, email_em_vigor text) RETURNS jsonb
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN valor IS NULL OR jsonb_typeof(valor) = 'null' THEN NULL
              WHEN jsonb_typeof(valor) <> 'string' THEN 'false'::jsonb
              WHEN valor #>> '{}' = email_em_vigor THEN valor
              ELSE NULL END;

-- A payload reduced to what the applier reads of it (LeitorDeEventos): the ids, the version
-- (sequence and the instant, as sent), the status and the total, and the email where the order
-- still needs it. Read again, it gives the same fact, or the same reason to have none. Everything
-- else the store sent (and any personal data in it) is gone.
CREATE FUNCTION payload_redigido(tipo text, payload jsonb, email_em_vigor text) RETURNS jsonb
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN jsonb_strip_nulls(
    CASE WHEN tipo = 'api.order' THEN
      jsonb_build_object(
        'id', payload -> 'id',
        'status', payload -> 'status',
        'sequence', payload -> 'sequence',
        'updated_at', payload -> 'updated_at',
        'total_cents', payload -> 'total_cents',
        'customer_email', email_retido(payload -> 'customer_email', email_em_vigor))
    ELSE
      jsonb_build_object(
        'id', payload -> 'id',
        'type', payload -> 'type',
        'sequence', payload -> 'sequence',
        'occurred_at', payload -> 'occurred_at',
        'data', CASE WHEN jsonb_typeof(payload -> 'data') = 'object' THEN
          jsonb_build_object(
            'id', payload -> 'data' -> 'id',
            'status', payload -> 'data' -> 'status',
            'total_cents', payload -> 'data' -> 'total_cents',
            'customer_email', email_retido(payload -> 'data' -> 'customer_email', email_em_vigor))
        END)
    END);

-- The rows retention still has to redact, oldest first, and nothing else: a batch reads only its
-- own rows however many were redacted before, and a row leaves the index when it is redacted.
-- Rows settled as falha_de_aplicacao are not facts yet (a forced replay applies them) and stay whole.
-- Not CONCURRENTLY (Flyway holds a transaction): on a large existing inbox build it by hand first
-- with CREATE INDEX CONCURRENTLY and the same definition (README, "Data lifecycle").
CREATE INDEX IF NOT EXISTS webhook_eventos_a_redigir
  ON webhook_eventos (recebido_em)
  WHERE aplicado_em IS NOT NULL AND redigido_em IS NULL AND resultado <> 'falha_de_aplicacao';

-- The sent outbox rows retention still has to look at. A row of an order in a terminal status is
-- deleted; a liberar_separacao of an order still open is kept as the key that stops a second
-- release (the only effect a later transition could repeat), with its snapshot's email cleared,
-- which takes it out of this index.
CREATE INDEX IF NOT EXISTS outbox_a_expurgar
  ON outbox (enviado_em)
  WHERE enviado_em IS NOT NULL AND (cliente_email IS NOT NULL OR efeito <> 'liberar_separacao');

-- The applier runs retention: it deletes old quarantined bodies and sent outbox rows, and clears
-- the email of the outbox rows it keeps. Still no DELETE on the inbox or the orders. (The erasure
-- command runs as the owner, like the migrations: no service may rewrite the relay's dead letters.)
GRANT DELETE ON webhook_quarentena, outbox TO pedidos_aplicador;
GRANT UPDATE (cliente_email) ON outbox TO pedidos_aplicador;
