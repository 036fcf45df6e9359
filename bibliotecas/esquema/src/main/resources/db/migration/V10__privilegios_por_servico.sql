-- Why: every service used to connect as a superuser, so a bug or a leaked password in the
-- internet-facing receptor was a superuser on the database that holds every customer's email (and
-- COPY ... TO PROGRAM a shell on its host). Each service now logs in with a role of its own holding
-- only what it needs; the roles are created by the deployment (README, "Database roles": compose's
-- init script, infra-local for tests and the local run), migrations run as the owner role, and the
-- grants live here so they follow the schema. A later migration that adds a table grants it too.

-- receptor: stores events and quarantined bodies, compares redeliveries; reads nothing else.
GRANT SELECT, INSERT ON webhook_eventos TO pedidos_receptor;
GRANT SELECT, INSERT, UPDATE ON webhook_quarentena TO pedidos_receptor;

-- aplicador: the inbox's verdicts (and events from Kafka the inbox lacks), the orders, their
-- effects, the reconciliation cursor; reads the quarantine for the status page.
GRANT SELECT, INSERT, UPDATE ON webhook_eventos TO pedidos_aplicador;
GRANT SELECT, INSERT, UPDATE ON pedidos TO pedidos_aplicador;
GRANT SELECT, INSERT ON outbox TO pedidos_aplicador;
GRANT SELECT, INSERT, UPDATE ON cursores TO pedidos_aplicador;
GRANT SELECT ON webhook_quarentena TO pedidos_aplicador;

-- publicador-outbox: reads the captured tables (the resend path), marks effects sent, keeps its
-- offsets. Its login role also needs the REPLICATION attribute, which only a superuser can give
-- and which is not inherited: the deployment creates it so.
GRANT SELECT ON webhook_eventos, outbox TO pedidos_publicador;
GRANT UPDATE (enviado_em) ON outbox TO pedidos_publicador;
GRANT SELECT, INSERT, UPDATE, DELETE ON publicador_offsets TO pedidos_publicador;
GRANT SELECT, INSERT, UPDATE ON publicador_mortos TO pedidos_publicador;

-- Every service checks at start that the schema is migrated (Flyway validate), reading only this.
GRANT SELECT ON flyway_schema_history TO pedidos_receptor, pedidos_aplicador, pedidos_publicador;
