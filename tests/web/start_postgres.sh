#!/bin/sh
# Start a throwaway PostgreSQL cluster on 127.0.0.1 and print its URL (for GAMMON_TEST_PG_URL).
# Usage: export GAMMON_TEST_PG_URL="$(tests/web/start_postgres.sh)"
# Runs the server as the "postgres" user when started as root (PostgreSQL refuses to run as root).
# Stop it with: pg_ctl -D "$dir/data" stop (the data folder is printed on stderr).
set -eu
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
    echo "start_postgres.sh: no /usr/lib/postgresql/*/bin; install the Debian package postgresql" >&2
    exit 1
fi
port=${PGPORT_TEST:-55432}
dir=$(mktemp -d /tmp/gammon-pg.XXXXXX)
as_pg() {
    if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}
if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
as_pg "'$bin/initdb' -D '$dir/data' -U postgres -A trust --no-sync -E UTF8" >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
as_pg "'$bin/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w \
    -o \"-h 127.0.0.1 -p $port -k '$dir' -c fsync=off\" start" >&2 \
    || { cat "$dir/server.log" >&2; exit 1; }
echo "start_postgres.sh: cluster in $dir/data, port $port" >&2
echo "postgresql://postgres@127.0.0.1:$port/postgres"
