#!/usr/bin/env bash
# End-to-end benchmark (issues 4 and 17), not a test: builds the jars if any is missing, then runs
# the Java driver (ferramentas/bancada, pedidos.bancada.BancadaPontaAPonta). The driver starts
# PostgreSQL, a Kafka broker in its own JVM, the system (infra-local's SistemaEmProcessos) and the
# load generator in its own JVM; it reports the cold start (the first 60 s) and warm (60 s after a
# 60 s warm-up) at 300 events/s, with CPU ms per event for every process, and rewrites its section
# of docs/BENCHMARKS-ponta-a-ponta.md. Options (see --help):
#
#   bench/ponta-a-ponta.sh                                   # the documented run, ~4 minutes
#   bench/ponta-a-ponta.sh --frio 20 --aquecimento 10 --quente 20 --doc -   # a quick look, no doc
#   bench/ponta-a-ponta.sh --java /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --jvm "-Xms1g -Xmx1g"
#
# RECONSTRUIR=1 rebuilds the jars even if present. Every process it starts stops with it.
set -euo pipefail
RAIZ=$(cd "$(dirname "$0")/.." && pwd)
VERSAO=0.1.0-SNAPSHOT
falta=""
for jar in receptor/target/receptor-$VERSAO.jar aplicador/target/aplicador-$VERSAO.jar \
  publicador-outbox/target/publicador-outbox-$VERSAO.jar ferramentas/bancada/target/bancada-$VERSAO.jar; do
  [ -f "$RAIZ/$jar" ] || falta="$falta $jar"
done
if [ -n "$falta" ] || [ -n "${RECONSTRUIR:-}" ]; then
  echo "building the jars (missing:${falta:- none})" >&2
  (cd "$RAIZ" && mvn -B -q -DskipTests -Dspotless.check.skip=true package -pl :bancada -am)
fi
# A copy: a build elsewhere in the tree must not rewrite the driver's jar under its JVM.
COPIA=$(mktemp -d /tmp/bancada-jar.XXXXXX)
trap 'rm -rf "$COPIA"' EXIT
cp "$RAIZ/ferramentas/bancada/target/bancada-$VERSAO.jar" "$COPIA/"
java -Dpedidos.raiz="$RAIZ" -jar "$COPIA/bancada-$VERSAO.jar" "$@"
