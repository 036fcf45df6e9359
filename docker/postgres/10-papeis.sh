#!/bin/sh
# Runs once, when the official postgres image initialises an empty data directory: the system's
# roles (README, "Database roles"). The owner role owns the database and runs the migrations
# (compose's `migracao` step); each service logs in with a role that has only the grants the
# migrations give it. Only the relay's role may open a replication connection.
# Mirrors ferramentas/infra-local's PreparoDoBanco (the roles of PapelNoBanco), which the tests, the
# local run and the benchmarks use; infra-local's PapeisDoComposeTest compares the two.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v dono="$PEDIDOS_DONO_PASSWORD" \
  -v receptor="$PEDIDOS_RECEPTOR_PASSWORD" \
  -v aplicador="$PEDIDOS_APLICADOR_PASSWORD" \
  -v publicador="$PEDIDOS_PUBLICADOR_PASSWORD" \
  -v banco="$POSTGRES_DB" <<'SQL'
CREATE ROLE pedidos_dono LOGIN PASSWORD :'dono';
CREATE ROLE pedidos_receptor LOGIN PASSWORD :'receptor';
CREATE ROLE pedidos_aplicador LOGIN PASSWORD :'aplicador';
CREATE ROLE pedidos_publicador LOGIN REPLICATION PASSWORD :'publicador';
ALTER DATABASE :"banco" OWNER TO pedidos_dono;
SQL
# The image's pg_hba.conf lets every role in from the network, but not for replication.
echo "host replication pedidos_publicador all scram-sha-256" >> "$PGDATA/pg_hba.conf"
