#!/usr/bin/env bash
# Cold start under load (issue 17), a small harness until ferramentas/bancada reports it: starts the
# whole system from nothing with the local launcher (embedded PostgreSQL 17, the KRaft broker, the
# three services as processes, with the JVM options of servicos.jvm.opcoes), and the moment it says
# it is up sends fresh orders at $TAXA events/s for $DURACAO s from a JVM of its own
# (pedidos.bancada.CargaConstante). Then, from PostgreSQL's own timestamps, the latency from the
# inbox insert to the apply (aplicado_em - recebido_em) per 10 s slice from the first event, the
# receptor's answers, and the CPU of every process (from /proc) in the first 60 s and the rest.
#
#   bench/arranque.sh                       # JDK 17, 300/s, 150 s
#   JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java bench/arranque.sh
#   OPCOES_DOS_SERVICOS="-Xmx512m" bench/arranque.sh   # other options for all three services
#
# Needs the jars (mvn -B -DskipTests package: the launcher's, the services', ferramentas/bancada's) and
# psql. Stops everything it started.
set -euo pipefail
export LC_ALL=C
RAIZ=$(cd "$(dirname "$0")/.." && pwd)
cd "$RAIZ"
TAXA=${TAXA:-300}
DURACAO=${DURACAO:-150}
JAVA=${JAVA:-java}
TRABALHO=${TRABALHO:-$(mktemp -d /tmp/arranque.XXXXXX)}
mkdir -p "$TRABALHO"
BASE=${PORTA_BASE:-18710}
export LOCAL_POSTGRES_PORT=$((BASE + 40)) LOCAL_KAFKA_PORT=$((BASE + 41)) RECEPTOR_PORT=$BASE \
  APLICADOR_PORT=$((BASE + 2)) PUBLICADOR_PORT=$((BASE + 4)) LOJA_API_PORT=$((BASE + 6))
[ -z "${OPCOES_DOS_SERVICOS:-}" ] || export PEDIDOS_OPCOES_DA_JVM="$OPCOES_DOS_SERVICOS"
JAR=ferramentas/executar-local/target/executar-local-0.1.0-SNAPSHOT.jar
SEGREDO=segredo-local-de-desenvolvimento-32b
export PEDIDOS_OPS_USUARIO=ops PEDIDOS_OPS_SENHA=senha-da-bancada-de-arranque
PID_LANCADOR="" PID_CARGA=""
log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }
parar() {
  set +e
  [ -z "$PID_CARGA" ] || kill "$PID_CARGA" 2>/dev/null
  if [ -n "$PID_LANCADOR" ]; then
    kill -TERM "$PID_LANCADOR" 2>/dev/null
    for _ in $(seq 1 300); do kill -0 "$PID_LANCADOR" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$PID_LANCADOR" 2>/dev/null
  fi
  log "stopped; files in $TRABALHO"
}
trap parar EXIT

cpu() { # pid -> utime+stime in clock ticks
  awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0
}
cpu_postgres() { # every process of the postmaster, and the postmaster
  local total=0 p
  for p in $PIDS_PG; do total=$((total + $(cpu "$p"))); done
  for p in $(ps -o pid= --ppid "$POSTMASTER"); do total=$((total + $(cpu "$p"))); done
  echo "$total"
}
amostra() { # label -> one line of ticks per process
  echo "$1 $(cpu "$PID_LANCADOR") $(cpu "$P_RECEPTOR") $(cpu "$P_RELAY") $(cpu "$P_APLICADOR") $(cpu_postgres) $(cpu "$PID_CARGA") $(date +%s.%N) $(cut -d' ' -f1 /proc/loadavg)"
}

log "starting the system (work dir $TRABALHO, load average $(cut -d' ' -f1-3 /proc/loadavg))"
INICIO=$(date +%s.%N)
"$JAVA" ${OPCOES_DO_LANCADOR:-} -jar "$JAR" --limpo >"$TRABALHO/sistema.log" 2>&1 &
PID_LANCADOR=$!
until grep -q "The system is up" "$TRABALHO/sistema.log"; do
  kill -0 "$PID_LANCADOR" 2>/dev/null || { tail -30 "$TRABALHO/sistema.log"; exit 1; }
  sleep 0.2
done
PRONTO=$(date +%s.%N)
grep -E "^Starting|^\[(receptor|aplicador|publicador-outbox)\].*Started [A-Za-z]+ in" "$TRABALHO/sistema.log" >&2 || true
log "system up after $(echo "$PRONTO - $INICIO" | bc) s"
pid_de() { pgrep -f "/$1/target/.*$1-0.1.0-SNAPSHOT.jar" | head -1 || true; }
P_RECEPTOR=$(pid_de receptor) P_RELAY=$(pid_de publicador-outbox) P_APLICADOR=$(pid_de aplicador)
POSTMASTER=$(head -1 .local/postgres/postmaster.pid 2>/dev/null || pgrep -f "postgres -D .*\.local/postgres" | head -1)
PIDS_PG=$POSTMASTER
"$JAVA" -Dloader.main=pedidos.bancada.CargaConstante -cp ferramentas/bancada/target/bancada-0.1.0-SNAPSHOT.jar \
  org.springframework.boot.loader.launch.PropertiesLauncher "http://127.0.0.1:$RECEPTOR_PORT/webhooks/loja" \
  "$SEGREDO" "$TAXA" 0 "$DURACAO" "$TRABALHO/carga.csv" "a$RANDOM" >"$TRABALHO/carga.log" 2>&1 &
PID_CARGA=$!
until grep -q CARGA "$TRABALHO/carga.log"; do kill -0 "$PID_CARGA" || { cat "$TRABALHO/carga.log"; exit 1; }; sleep 0.05; done
amostra inicio >"$TRABALHO/cpu.txt"
PSQL="psql -X -q -A -t -F | postgresql://postgres:postgres@127.0.0.1:$LOCAL_POSTGRES_PORT/pedidos"
# Every 5 s: stored, published by the relay, applied, and the CPU ticks of each process, to see
# which stage a backlog sits in.
(
  echo "s | stored | published | applied | ticks: kafka receptor relay aplicador postgres | load"
  t0=$EPOCHSECONDS
  while kill -0 "$PID_CARGA" 2>/dev/null; do
    publicadas=$(curl -s -u "ops:$PEDIDOS_OPS_SENHA" "http://127.0.0.1:$((PUBLICADOR_PORT + 1000))/actuator/prometheus" |
      awk '/^publicador_linhas_publicadas_total/ {s += $2} END {printf "%d", s}')
    echo "$((EPOCHSECONDS - t0)) | $($PSQL -c "select count(*) || ' | $publicadas | ' || count(aplicado_em) from webhook_eventos") | $(cpu "$PID_LANCADOR") $(cpu "$P_RECEPTOR") $(cpu "$P_RELAY") $(cpu "$P_APLICADOR") $(cpu_postgres) | $(cut -d' ' -f1 /proc/loadavg)"
    sleep 5
  done
) >"$TRABALHO/etapas.txt" 2>&1 &
sleep 60
amostra 60s >>"$TRABALHO/cpu.txt"
until grep -q "ENVIO TERMINADO" "$TRABALHO/carga.log"; do sleep 0.5; done
sleep 3
amostra fim >>"$TRABALHO/cpu.txt"
wait "$PID_CARGA" || true
PID_CARGA=""
cat "$TRABALHO/carga.log" >&2
cat "$TRABALHO/etapas.txt"
PSQL="psql -X -q -A -F | postgresql://postgres:postgres@127.0.0.1:$LOCAL_POSTGRES_PORT/pedidos"
echo "slice | events | applied | p50 ms | p99 ms | max ms"
$PSQL -t -c "
  with e as (select recebido_em, aplicado_em from webhook_eventos where evento_id not like 'evt_demo%'),
       z as (select min(recebido_em) t0 from e)
  select (extract(epoch from recebido_em - t0)::int / 10) * 10 as fatia, count(*),
         count(aplicado_em),
         round(percentile_cont(0.5) within group (order by extract(epoch from aplicado_em - recebido_em)*1000)::numeric, 1),
         round(percentile_cont(0.99) within group (order by extract(epoch from aplicado_em - recebido_em)*1000)::numeric, 1),
         round(max(extract(epoch from aplicado_em - recebido_em)*1000)::numeric, 1)
  from e, z group by 1 order by 1;
  select 'first 60 s', count(*), count(aplicado_em),
         round(percentile_cont(0.5) within group (order by extract(epoch from aplicado_em - recebido_em)*1000)::numeric, 1),
         round(percentile_cont(0.99) within group (order by extract(epoch from aplicado_em - recebido_em)*1000)::numeric, 1),
         round(max(extract(epoch from aplicado_em - recebido_em)*1000)::numeric, 1)
  from webhook_eventos, (select min(recebido_em) t0 from webhook_eventos) z where recebido_em < t0 + interval '60 s';
  select 'after 60 s', count(*), count(aplicado_em),
         round(percentile_cont(0.5) within group (order by extract(epoch from aplicado_em - recebido_em)*1000)::numeric, 1),
         round(percentile_cont(0.99) within group (order by extract(epoch from aplicado_em - recebido_em)*1000)::numeric, 1),
         round(max(extract(epoch from aplicado_em - recebido_em)*1000)::numeric, 1)
  from webhook_eventos, (select min(recebido_em) t0 from webhook_eventos) z where recebido_em >= t0 + interval '60 s';" |
  tee "$TRABALHO/latencia.txt"
# CPU ms per event in each window, per process (ticks are 10 ms)
awk -v taxa="$TAXA" '
  { t[NR]=$8; for (i = 2; i <= 7; i++) c[NR, i] = $i; la[NR]=$9 }
  END {
    split("kafka+launcher receptor relay aplicador postgres load-generator", nome, " ")
    for (j = 2; j <= 3; j++) {
      s = t[j] - t[j-1]; n = s * taxa
      printf "CPU %s (%.0f s, load avg at end %s): ms/event", (j == 2 ? "first 60 s" : "after 60 s"), s, la[j]
      tot = 0
      for (i = 2; i <= 7; i++) { v = (c[j, i] - c[j-1, i]) * 10 / n; if (i < 7) tot += v; printf "  %s %.2f", nome[i-1], v }
      printf "  | system total %.2f\n", tot
    }
  }' "$TRABALHO/cpu.txt" | tee "$TRABALHO/cpu-resumo.txt"
echo "load average now: $(cat /proc/loadavg)"
