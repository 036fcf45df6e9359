#!/bin/bash
# The stand-in's entrypoint: what the official image's docker-entrypoint.sh does for the cases
# docker-compose.yml uses. As root: own the data directory, then run again as postgres. As
# postgres, on an empty data directory: initdb with POSTGRES_USER / POSTGRES_PASSWORD, allow
# password logins from the network, start a server on the Unix socket only, create POSTGRES_DB,
# run /docker-entrypoint-initdb.d (*.sh executed if executable, else sourced; *.sql through psql),
# stop it. Then the command, `postgres ...`, in the foreground.
set -Eeo pipefail

if [ "${1:0:1}" = '-' ]; then
  set -- postgres "$@"
fi

if [ "$1" = 'postgres' ] && [ "$(id -u)" = '0' ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 0700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
fi

export POSTGRES_USER="${POSTGRES_USER:-postgres}"
export POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"

if [ "$1" = 'postgres' ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo 'Error: POSTGRES_PASSWORD must be set (the stand-in has no trust mode)' >&2
    exit 1
  fi
  initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
    --auth-local=trust --auth-host=scram-sha-256 ${POSTGRES_INITDB_ARGS:-}
  printf '\nhost all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  sed -ri "s/^#?(listen_addresses)\s*=\s*\S+.*/\1 = '*'/" "$PGDATA/postgresql.conf"

  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
  if [ "$POSTGRES_DB" != 'postgres' ]; then
    psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
      --set db="$POSTGRES_DB" <<< 'CREATE DATABASE :"db";'
  fi
  for arquivo in /docker-entrypoint-initdb.d/*; do
    case "$arquivo" in
      *.sh)
        if [ -x "$arquivo" ]; then
          echo "running $arquivo"; "$arquivo"
        else
          echo "sourcing $arquivo"; . "$arquivo"
        fi
        ;;
      *.sql)
        echo "running $arquivo"
        psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -f "$arquivo"
        ;;
      *) [ -e "$arquivo" ] && echo "ignoring $arquivo" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo 'PostgreSQL init process complete; ready for start up.'
fi

exec "$@"
