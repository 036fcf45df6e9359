-- Why: when the picking system is down for maintenance, or recovering, operators must be able to
-- stop effects reaching separacao.efeitos without losing any, and to let the backlog through at a
-- pace it can take afterwards (issue 29). Effects keep being recorded in the outbox meanwhile and
-- stay unsent (enviado_em NULL); the relay keeps streaming (inbox rows to loja.eventos, and its slot
-- advances, so PostgreSQL keeps no WAL for the pause) and sends the outbox backlog from the table
-- once delivery resumes (publicador-outbox, README "Pausing delivery").
-- The state lives here, not in a relay: the active relay and its standbys read the same row, so it
-- survives restarts and a change of the active relay. One row, ever (the key can only be true).
CREATE TABLE entrega_dos_efeitos (
  unica boolean PRIMARY KEY DEFAULT true CHECK (unica),
  pausada boolean NOT NULL DEFAULT false,
  pausada_em timestamptz, -- the latest pause
  pausada_por text, -- the operator who paused it
  motivo text, -- why, as the operator said it
  retomada_em timestamptz, -- the latest resume: the backlog drains at the relay's pace from here
  retomada_por text,
  -- When the active relay, after the latest resume, found no unsent effect left and went back to
  -- publishing from the stream; NULL while it still drains.
  esvaziada_em timestamptz
);

INSERT INTO entrega_dos_efeitos (unica) VALUES (true);

-- aplicador: pauses and resumes (the ops page and the pausar-entrega / retomar-entrega commands);
-- a resume starts a new drain, so it clears esvaziada_em.
GRANT SELECT ON entrega_dos_efeitos TO pedidos_aplicador;
GRANT UPDATE (pausada, pausada_em, pausada_por, motivo, retomada_em, retomada_por, esvaziada_em)
  ON entrega_dos_efeitos TO pedidos_aplicador;
-- publicador-outbox: reads the state and records only the end of a drain.
GRANT SELECT ON entrega_dos_efeitos TO pedidos_publicador;
GRANT UPDATE (esvaziada_em) ON entrega_dos_efeitos TO pedidos_publicador;
