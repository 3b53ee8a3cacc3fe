#!/bin/bash
# Initialise PGDATA on first start from POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB, as the
# official image does, then run the server in the foreground (PID 1, so `docker stop` is clean).
set -euo pipefail

if [ "${1:-postgres}" != "postgres" ] && [ "${1:0:1}" != "-" ]; then
    exec "$@"  # e.g. `docker run IMAGE psql ...`
fi
[ "${1:-}" = "postgres" ] && shift

user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
password="${POSTGRES_PASSWORD:-}"
auth="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "$password" ] && [ "$auth" != "trust" ]; then
        echo "error: set POSTGRES_PASSWORD (or POSTGRES_HOST_AUTH_METHOD=trust)" >&2
        exit 1
    fi
    pwfile="$(mktemp)"
    printf '%s\n' "${password:-unused}" >"$pwfile"
    initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host="$auth" \
        --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
    rm -f "$pwfile"
    {
        echo "listen_addresses = '*'"
        echo "unix_socket_directories = '/var/run/postgresql'"
    } >>"$PGDATA/postgresql.conf"
    echo "host all all all $auth" >>"$PGDATA/pg_hba.conf"
    if [ "$db" != "postgres" ]; then
        # single-user mode: no server listens before initialisation is finished
        echo "CREATE DATABASE \"$db\" OWNER \"$user\";" \
            | postgres --single -j -D "$PGDATA" postgres >/dev/null
    fi
    echo "initialised $PGDATA: user $user, database $db"
fi
exec postgres -D "$PGDATA" "$@"
