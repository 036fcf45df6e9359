#!/usr/bin/env bash
# The knee (issue 27): the whole pipeline at rising steady rates, each run the end-to-end driver's
# (bench/ponta-a-ponta.sh) with a 60 s cold window, 60 s of warm-up and a 5-minute warm window, so
# that a backlog that grows shows in the warm window's applied rate and p99. Each run's report goes
# to target/joelho/<rate>.md; docs/BENCHMARKS.md's table is read off them.
#
#   bench/joelho.sh                      # 300, 500, 700 events/s (docs/BENCHMARKS.md has 300, 600, 800)
#   TAXAS="300 900" QUENTE=120 bench/joelho.sh
set -euo pipefail
RAIZ=$(cd "$(dirname "$0")/.." && pwd)
SAIDA="$RAIZ/target/joelho"
mkdir -p "$SAIDA"
for taxa in ${TAXAS:-300 500 700}; do
  echo "== $taxa events/s" >&2
  "$RAIZ/bench/ponta-a-ponta.sh" --taxa "$taxa" --frio 60 --aquecimento 60 \
    --quente "${QUENTE:-300}" --doc - > "$SAIDA/$taxa.md"
  grep -E '^\| \*\*(cold|warm)' "$SAIDA/$taxa.md" >&2 || true
done
