#!/usr/bin/env bash
# The services' images at start (issue 17), not a test: each service's image, as the root
# Dockerfile builds it, started the way its ENTRYPOINT starts it, up to the refresh of its Spring
# context (-Dspring.context.exit=onRefresh: every bean made, nothing started, so no database or
# broker is needed), with and without the AOT cache the image build trained, and optionally the
# image the Dockerfile of another revision builds from the same jars. Wall time and the CPU the
# container's JVM used (bash's `time` inside the container), alternating the variants round by
# round, then the median of each.
#
#   bench/imagens.sh                          # the three services, 5 rounds
#   ANTES=8026a6a bench/imagens.sh            # plus the images that revision's Dockerfile builds
#   RODADAS=3 MODULOS=receptor bench/imagens.sh
#
# Needs a Docker engine and the Dockerfiles' base images (testes-de-sistema/implantacao/preparar-docker.sh;
# for ANTES before the move to trixie, debian:bookworm-slim too) and the jars (mvn -B -DskipTests
# package). Each container gets the compose file's memory limit, a read-only root and a scratch /tmp.
set -euo pipefail
export LC_ALL=C
RAIZ=$(cd "$(dirname "$0")/.." && pwd)
cd "$RAIZ"
RODADAS=${RODADAS:-5}
MODULOS=${MODULOS:-"receptor aplicador publicador-outbox"}
ANTES=${ANTES:-}
TRABALHO=${TRABALHO:-$(mktemp -d /tmp/imagens.XXXXXX)}
mkdir -p "$TRABALHO"
DOCKER=${DOCKER:-docker}
log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }

# What every service needs to reach its context's refresh: throw-away values, as the image build's
# training step gives them.
AMBIENTE=(
  -e LOJA_WEBHOOK_SECRET=bancada-das-imagens-nao-e-um-segredo
  -e PEDIDOS_KAFKA_ASSINATURA=bancada-das-imagens-nao-e-uma-chave
  -e PEDIDOS_OPS_USUARIO=bancada -e PEDIDOS_OPS_SENHA=bancada-das-imagens-senha
)

construir() { # dockerfile tag module
  log "building $2"
  DOCKER_BUILDKIT=0 "$DOCKER" build -q -f "$1" --build-arg MODULO="$3" -t "$2" . > /dev/null
}

# The image's own ENTRYPOINT, with the exit at refresh before -jar; for "com", with the cache
# required (-XX:AOTMode=on: a cache the JVM refuses fails the run instead of being measured as one),
# for "sem" without the option file that maps it.
comando() { # image variant
  local ponto
  ponto=$("$DOCKER" image inspect -f '{{range .Config.Entrypoint}}{{.}} {{end}}' "$1")
  ponto=${ponto/ -jar / -Dspring.context.exit=onRefresh -jar }
  case $2 in
    com) ponto=${ponto/ @\/app\/opcoes-do-cache/ @\/app\/opcoes-do-cache -XX:AOTMode=on} ;;
    sem) ponto=${ponto/ @\/app\/opcoes-do-cache/} ;;
  esac
  echo "$ponto --spring.flyway.enabled=false"
}

medir() { # image variant -> "wall user sys"; the JVM's output in $TRABALHO/ultima.log
  if ! "$DOCKER" run --rm --read-only --tmpfs /tmp -m 768m "${AMBIENTE[@]}" --entrypoint bash "$1" \
    -c "TIMEFORMAT='%R %U %S'; time ( $(comando "$1" "$2") > /tmp/saida 2>&1 || { cat /tmp/saida >&2; exit 1; } )" \
    > "$TRABALHO/ultima.log" 2>&1; then
    log "$1 ($2) failed:"
    cat "$TRABALHO/ultima.log" >&2
    return 1
  fi
  tail -1 "$TRABALHO/ultima.log"
}

VARIANTES=(atual:com atual:sem)
for m in $MODULOS; do
  construir Dockerfile "pedidos-bancada/$m:atual" "$m"
  if [ -n "$ANTES" ]; then
    git show "$ANTES:Dockerfile" > "$TRABALHO/Dockerfile.antes"
    construir "$TRABALHO/Dockerfile.antes" "pedidos-bancada/$m:antes" "$m"
  fi
done
[ -z "$ANTES" ] || VARIANTES+=(antes:sem)

RESULTADOS="$TRABALHO/medidas.txt"
: > "$RESULTADOS"
for r in $(seq 1 "$RODADAS"); do
  for m in $MODULOS; do
    for v in "${VARIANTES[@]}"; do
      medida=$(medir "pedidos-bancada/$m:${v%%:*}" "${v#*:}")
      log "round $r $m $v: $medida"
      echo "$m $v $medida" >> "$RESULTADOS"
    done
  done
done

mediana() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
nome() {
  case $1 in
    atual:com) echo "as shipped (JRE 25, AOT cache)" ;;
    atual:sem) echo "the same image without its cache" ;;
    antes:sem) echo "the Dockerfile of $ANTES" ;;
  esac
}
{
  echo "Start to the context's refresh in each service's image, $RODADAS rounds, median (min-max):"
  echo
  echo "| module | image | wall s | CPU s (user + sys) |"
  echo "| --- | --- | --- | --- |"
  for m in $MODULOS; do
    for v in "${VARIANTES[@]}"; do
      linhas=$(awk -v m="$m" -v v="$v" '$1 == m && $2 == v' "$RESULTADOS")
      parede=$(awk '{print $3}' <<< "$linhas")
      cpu=$(awk '{printf "%.2f\n", $4 + $5}' <<< "$linhas")
      printf '| %s | %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) |\n' "$m" "$(nome "$v")" \
        "$(mediana <<< "$parede")" "$(sort -n <<< "$parede" | head -1)" "$(sort -n <<< "$parede" | tail -1)" \
        "$(mediana <<< "$cpu")" "$(sort -n <<< "$cpu" | head -1)" "$(sort -n <<< "$cpu" | tail -1)"
    done
  done
} | tee "$TRABALHO/resultados.md"
