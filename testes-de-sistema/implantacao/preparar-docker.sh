#!/usr/bin/env bash
# What the deployment test (implantacao) needs on a Debian machine, as root; CI runs it before
# `mvn -B verify`, and it does nothing that is already done:
#   1. Debian's docker.io (engine 20.10), docker-compose (1.29) and debootstrap;
#   2. a Docker engine: dockerd is started (log in /tmp/dockerd.log) unless one answers;
#   3. the base image of every Dockerfile here, debian:trixie-slim. Where a registry can be
#      reached it is pulled; where none can (this project's machines), it is made from Debian's
#      own packages, as the official image is: debootstrap --variant=minbase trixie, imported
#      under the same name. Made once per machine: kept while `docker image inspect` finds it.
set -euo pipefail

IMAGEM=debian:trixie-slim

falta=()
command -v dockerd > /dev/null || falta+=(docker.io)
command -v docker-compose > /dev/null || falta+=(docker-compose)
command -v debootstrap > /dev/null || falta+=(debootstrap)
if [ ${#falta[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${falta[@]}" > /dev/null
fi

# Debian's client, whatever else is on the PATH: it speaks the engine's own API version.
DOCKER=/usr/bin/docker
if ! "$DOCKER" info > /dev/null 2>&1; then
  echo "starting dockerd (log: /tmp/dockerd.log)"
  nohup dockerd > /tmp/dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    "$DOCKER" info > /dev/null 2>&1 && break
    sleep 1
  done
  if ! "$DOCKER" info > /dev/null 2>&1; then
    echo "dockerd did not start; its log:" >&2
    tail -20 /tmp/dockerd.log >&2
    exit 1
  fi
fi

if ! "$DOCKER" image inspect "$IMAGEM" > /dev/null 2>&1; then
  if ! "$DOCKER" pull -q "$IMAGEM" > /dev/null 2>&1; then
    echo "making $IMAGEM with debootstrap (about a minute)"
    raiz=$(mktemp -d)
    trap 'rm -rf "$raiz"' EXIT
    debootstrap --variant=minbase trixie "$raiz" > /tmp/debootstrap.log 2>&1 || {
      tail -20 /tmp/debootstrap.log >&2
      exit 1
    }
    # As the official slim image: no package cache or lists in the image.
    rm -rf "$raiz"/var/cache/apt/archives/*.deb "$raiz"/var/lib/apt/lists/*
    tar -C "$raiz" -c . | "$DOCKER" import - "$IMAGEM" > /dev/null
  fi
fi
echo "docker ready: engine $("$DOCKER" version -f '{{.Server.Version}}'), $(docker-compose version --short 2>/dev/null || echo 'docker-compose ?'), $IMAGEM present"
