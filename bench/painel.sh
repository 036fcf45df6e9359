#!/usr/bin/env bash
# Benchmark of the status page at scale (issue 18): every request the page makes, over HTTP with the
# operator's login, against an inbox of $LINHAS rows built with generate_series in the embedded
# PostgreSQL (infra-local, PostgreSQL 17), the page's cache off so that each request runs its
# queries. Also EXPLAIN ANALYZE of every panel query at that size. The work is done by the
# aplicador's PainelEmEscalaBench (a Spring context on the shared test PostgreSQL and Kafka); this
# script runs it and appends its report, with the command and the machine's load, to
# docs/BENCHMARKS.md as a new section.
#
#   bench/painel.sh                       # 5,000,000 rows, about 10 minutes on 2 cores
#   LINHAS=200000 NAO_ANOTAR=1 bench/painel.sh   # a quick check of the script, nothing written
set -euo pipefail
export LC_ALL=C

RAIZ=$(cd "$(dirname "$0")/.." && pwd)
LINHAS=${LINHAS:-5000000}
DIAS=${DIAS:-30}
PENDENTES=${PENDENTES:-20000}
MEDIDAS=${MEDIDAS:-40}
cd "$RAIZ"

carga_antes=$(cut -d' ' -f1-3 /proc/loadavg)
inicio=$(date +%s)
mvn -B -q -o -pl :aplicador -am verify -Dspotless.check.skip=true \
  -Dtest=PainelEmEscalaBench -Dsurefire.failIfNoSpecifiedTests=false \
  -Dpostgres.outras-versoes.pular=true \
  -Dpainel.bench.linhas="$LINHAS" -Dpainel.bench.dias="$DIAS" \
  -Dpainel.bench.pendentes="$PENDENTES" -Dpainel.bench.medidas="$MEDIDAS" \
  || { echo "the benchmark failed; see aplicador/target/surefire-reports" >&2; exit 1; }
fim=$(date +%s)
relatorio=aplicador/target/painel-em-escala.md
cat "$relatorio"

if [ -z "${NAO_ANOTAR:-}" ]; then
  {
    printf '\n## Status page at %s inbox rows (issue 18)\n\n' "$(printf "%'d" "$LINHAS" 2>/dev/null || echo "$LINHAS")"
    printf 'Run on %s UTC, commit %s, with `%s`' "$(date -u '+%Y-%m-%d %H:%M')" \
      "$(git rev-parse --short HEAD)" "LINHAS=$LINHAS DIAS=$DIAS PENDENTES=$PENDENTES bench/painel.sh"
    printf ' (%s s in all; load average %s before, 2 cores shared with other work).\n' \
      "$((fim - inicio))" "$carga_antes"
    printf 'Each request: %s timed after 5 warm-up ones, sequential, page cache off (every request\n' "$MEDIDAS"
    printf 'runs its queries), through HTTP Basic as the operator. Rows received over %s days, in order.\n\n' "$DIAS"
    cat "$relatorio"
  } >>docs/BENCHMARKS.md
  echo "appended to docs/BENCHMARKS.md" >&2
fi
