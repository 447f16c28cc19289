#!/bin/bash
# First start of an empty $PGDATA: initdb with POSTGRES_USER as the superuser, password authentication over
# TCP, POSTGRES_DB created, the role logins made and /docker-entrypoint-initdb.d applied on a socket-only server; then
# the real server in the foreground, on all interfaces. The schema is not this image's: `notifications-admin migrate`
# applies it once the server runs (scripts/swarm up does; docs/database.md).
set -euo pipefail
[ "${1:-}" != "" ] && [ "${1:0:1}" = "-" ] && set -- postgres "$@"
if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  pass=${POSTGRES_PASSWORD:-}
  [ -n "${POSTGRES_PASSWORD_FILE:-}" ] && pass=$(cat "$POSTGRES_PASSWORD_FILE")
  db=${POSTGRES_DB:-$user}
  auth=${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}
  if [ -z "$pass" ] && [ "$auth" != trust ]; then
    echo "error: the database is uninitialized and no superuser password is set: set POSTGRES_PASSWORD" \
         "(or POSTGRES_PASSWORD_FILE), or POSTGRES_HOST_AUTH_METHOD=trust" >&2
    exit 1
  fi
  pwfile=$(mktemp); printf '%s' "$pass" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host="$auth" -E UTF8 >/dev/null
  rm -f "$pwfile"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  echo "host all all all $auth" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$db" != postgres ]; then psql -v ON_ERROR_STOP=1 -qAt -U "$user" -d postgres -c "CREATE DATABASE \"$db\""; fi
  # One login per database role of db/postgres/repeatable/90_roles.sql, for each secret /run/secrets/postgres_<role>_password
  # (docs/security.md). The group role first (NOLOGIN, as scripts/setup makes it; migrate grants it later). The
  # password goes to psql on standard input: never on a command line.
  for f in /run/secrets/postgres_*_password; do
    [ -e "$f" ] || continue
    role=${f#/run/secrets/postgres_}; role=${role%_password}
    psql -v ON_ERROR_STOP=1 -q -U "$user" -d postgres -c "CREATE ROLE notifications_$role NOLOGIN"
    { printf "CREATE ROLE notifications_%s_login LOGIN IN ROLE notifications_%s PASSWORD '" "$role" "$role"; tr -d "'\n" < "$f"; printf "';\n"; } |
      psql -v ON_ERROR_STOP=1 -q -U "$user" -d postgres
    echo "login notifications_${role}_login created (member of notifications_$role)"
  done
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sql) psql -v ON_ERROR_STOP=1 -q -U "$user" -d "$db" -f "$f" ;;
      *.sh)  . "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "PostgreSQL init process complete; ready for start up."
fi
exec "$@"
