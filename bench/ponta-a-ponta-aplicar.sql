-- pgbench's copy of one apply by the applier's Kafka listener (OuvinteDeEventos ->
-- CaixaDeEntrada.GUARDAR_SE_AUSENTE -> AplicadorDeEventos.aplicarNaTransacao), statement for
-- statement, in the same order, over an event already in the inbox and not applied yet. What the
-- Java code computes between statements (reading the record, the fold, the new state and its
-- effects) is precomputed per event in bancada_fila by bench/ponta-a-ponta.sh.
--
-- pgbench pays two round trips the applier does not: fetching its event (the applier gets it from
-- Kafka) and a separate BEGIN (pgjdbc sends BEGIN with the first statement). Its ceiling is, if
-- anything, a little low.
SELECT evento_id AS ev, recurso_id AS ped, tipo, payload, recebido_em AS recebido, status AS st,
       versao, efeito
  FROM bancada_fila WHERE n = (SELECT nextval('bancada_seq')) \gset
BEGIN;
INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
VALUES (:ev, :ped, :tipo, :payload::jsonb, COALESCE(CAST(:recebido AS timestamptz), now()))
ON CONFLICT (evento_id) DO NOTHING;
SELECT recurso_id FROM webhook_eventos WHERE evento_id = :ev;
SELECT set_config('lock_timeout', '5000', true);
SELECT pg_advisory_xact_lock(hashtextextended(:ped, 0));
SELECT tipo, payload::text AS payload, aplicado_em IS NOT NULL AS aplicado
  FROM webhook_eventos WHERE evento_id = :ev FOR UPDATE;
SELECT evento_id, tipo, payload::text AS payload, resultado
  FROM webhook_eventos WHERE recurso_id = :ped AND aplicado_em IS NOT NULL AND evento_id <> :ev;
SELECT status, versao_origem, total_centavos, cliente_email FROM pedidos WHERE id = :ped;
INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem)
VALUES (:ped, :st, 1990, 'cliente@example.com', :versao)
ON CONFLICT (id) DO UPDATE
   SET status = EXCLUDED.status,
       total_centavos = EXCLUDED.total_centavos,
       cliente_email = EXCLUDED.cliente_email,
       versao_origem = EXCLUDED.versao_origem,
       atualizado_em = now()
 WHERE (pedidos.status, pedidos.total_centavos, pedidos.cliente_email, pedidos.versao_origem)
       IS DISTINCT FROM
       (EXCLUDED.status, EXCLUDED.total_centavos, EXCLUDED.cliente_email, EXCLUDED.versao_origem);
\if :efeito
INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email)
VALUES (:ped, 'liberar_separacao', :st, 1990, 'cliente@example.com')
ON CONFLICT DO NOTHING;
\endif
UPDATE webhook_eventos
   SET aplicado_em = COALESCE(aplicado_em, now()), resultado = 'aplicado', motivo = NULL
 WHERE evento_id = :ev;
END;
