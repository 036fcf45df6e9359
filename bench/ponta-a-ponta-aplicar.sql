-- pgbench's copy of one apply by the applier's Kafka listener (OuvinteDeEventos ->
-- AplicadorDeEventos.guardarEAplicarNaTransacao), statement for statement, in the same order,
-- over an event already in the inbox and not applied yet. What the Java code computes between
-- statements (reading the record, the policy, the new state and its effects) is precomputed per
-- event in bancada_fila by bench/ponta-a-ponta.sh.
--
-- Generated from the applier's statements (CaixaDeEntrada, LeitorDoPedido,
-- GravadorDaAplicacao) by aplicador's SqlDaBancadaTest, which fails when they differ: do not
-- edit by hand; run the test with -Dbancada.regravar=true to write it again.
--
-- Round trips, as the applier makes them: one pipeline (BEGIN, the insert, the lock, the read;
-- pgjdbc sends a multi-statement PreparedStatement the same way), the write, the commit. pgbench
-- pays one more, fetching its event (the applier gets it from Kafka).
SELECT evento_id AS ev, recurso_id AS ped, tipo, payload, recebido_em AS recebido, status AS st,
       versao, efeito
  FROM bancada_fila WHERE n = (SELECT nextval('bancada_seq')) \gset
\startpipeline
BEGIN;
INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em)
VALUES (:ev, :ped, :tipo, :payload::jsonb, COALESCE(CAST(:recebido AS timestamptz), now()))
ON CONFLICT (evento_id) DO NOTHING;
SELECT e.recurso_id, pg_advisory_xact_lock(hashtextextended(e.recurso_id, 0))::text AS travado
  FROM (SELECT set_config('lock_timeout', '5000', true),
               set_config('plan_cache_mode', 'force_generic_plan', true)) AS espera,
       webhook_eventos e
 WHERE e.evento_id = :ev;
SELECT f.evento_id, f.tipo, f.payload::text AS payload, f.aplicado_em IS NOT NULL AS aplicado,
       f.resultado, p.status, p.versao_origem, p.total_centavos, p.cliente_email
  FROM webhook_eventos f
  LEFT JOIN pedidos p ON p.id = f.recurso_id
 WHERE f.recurso_id = (SELECT recurso_id FROM webhook_eventos WHERE evento_id = :ev)
   AND (f.evento_id = :ev
        OR (f.aplicado_em IS NOT NULL AND f.resultado IS DISTINCT FROM 'falha_de_aplicacao'));
\endpipeline
WITH estado AS (
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
         (EXCLUDED.status, EXCLUDED.total_centavos, EXCLUDED.cliente_email, EXCLUDED.versao_origem)
), efeitos AS (
  INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email)
  SELECT :ped, efeito, :st, 1990, 'cliente@example.com'
    FROM unnest(CAST(CASE WHEN :efeito = 1 THEN '{liberar_separacao}' ELSE '{}' END AS text[])) AS efeito
  ON CONFLICT DO NOTHING
  RETURNING efeito
), assentado AS (
  UPDATE webhook_eventos
     SET aplicado_em = COALESCE(aplicado_em, now()), resultado = 'aplicado', motivo = NULL,
         kafka_particao = COALESCE(CAST(0 AS integer), kafka_particao),
         kafka_offset = COALESCE(CAST(0 AS bigint), kafka_offset)
   WHERE evento_id = :ev
), corrigidos AS (
  UPDATE webhook_eventos w
     SET resultado = c.resultado
    FROM unnest(CAST('{}' AS text[]), CAST('{}' AS text[])) AS c (evento_id, resultado)
   WHERE w.evento_id = c.evento_id AND w.evento_id <> :ev
)
SELECT efeito FROM efeitos;
END;
