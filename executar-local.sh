#!/usr/bin/env bash
# Builds what it needs and runs the whole system on this machine (only a JDK 17+ and Maven needed):
#   ./executar-local.sh [--demo] [--limpo]
set -euo pipefail
cd "$(dirname "$0")"
mvn -B -q -DskipTests -Dspotless.check.skip=true package
exec java -jar ferramentas/executar-local/target/executar-local-0.1.0-SNAPSHOT.jar "$@"
