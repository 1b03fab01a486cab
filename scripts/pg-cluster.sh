#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests: `start` makes one in a new temporary folder
# (initdb), starts it on a free loopback port and prints its URL; `stop` stops it and removes
# the folder. One cluster per checkout: its folder is remembered in .build/pg-cluster.state
# (or $FORMULARY_PG_CLUSTER_STATE).
#
#   scripts/pg-cluster.sh start   # prints postgres://postgres@127.0.0.1:PORT/postgres
#   scripts/pg-cluster.sh stop    # always succeeds, also when nothing runs
#   scripts/pg-cluster.sh status  # prints the URL of the running cluster, exit 1 when none
#   scripts/pg-cluster.sh halt    # stops the server at once (as a crash would), keeping its data
#   scripts/pg-cluster.sh resume  # starts a halted server again, same folder and port
#
# halt and resume are for tests of a server that goes away in the middle of a command; use
# them on a cluster of your own (FORMULARY_PG_CLUSTER_STATE), never on one other tests share.
#
# initdb and postgres refuse to run as root, so as root (CI) the server runs as an
# unprivileged user: Debian's `postgres` when the package created it, else `formulary-pg`,
# created here. The cluster trusts every local connection and listens on 127.0.0.1 only; it
# is for tests, never for data: fsync is off.
set -euo pipefail
cd "$(dirname "$0")/.."

state=${FORMULARY_PG_CLUSTER_STATE:-$PWD/.build/pg-cluster.state}

say() { echo "pg-cluster: $*" >&2; }

bindir() {
  local dir=""
  if command -v pg_config >/dev/null; then dir=$(pg_config --bindir 2>/dev/null || true); fi
  if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  fi
  if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
    say "initdb not found (install Debian's postgresql: make deps)"; exit 1
  fi
  echo "$dir"
}

# Runs a command as the cluster's user: as root through runuser (or su), else as ourselves.
as_owner() {
  if [ "$(id -u)" -ne 0 ]; then "$@"; return; fi
  if command -v runuser >/dev/null; then runuser -u "$owner" -- "$@"
  else su -s /bin/sh "$owner" -c "$(printf '%q ' "$@")"; fi
}

pick_owner() {
  if [ "$(id -u)" -ne 0 ]; then owner=$(id -un); return; fi
  if id postgres >/dev/null 2>&1; then owner=postgres; return; fi
  owner=formulary-pg
  if ! id "$owner" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$owner"
  fi
}

read_state() {
  dir="" port="" owner=""
  [ -f "$state" ] || return 1
  # shellcheck disable=SC1090
  . "$state"
  [ -n "$dir" ]
}

url() { echo "postgres://postgres@127.0.0.1:$1/postgres"; }

# FORMULARY_PG_CLUSTER_COMMITS=durable keeps synchronous_commit on: a test that halts the
# server (below) and then counts what was committed needs every acknowledged commit to survive.
server_options() {
  local commit=off
  [ "${FORMULARY_PG_CLUSTER_COMMITS:-}" = durable ] && commit=on
  echo "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=$commit -c full_page_writes=off -c max_connections=200"
}

halt() {
  read_state && [ -n "$port" ] || { say "no cluster of this checkout to halt"; exit 1; }
  local bin; bin=$(bindir)
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null
}

resume() {
  read_state && [ -n "$port" ] || { say "no cluster of this checkout to resume"; exit 1; }
  local bin; bin=$(bindir)
  if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 -o "$(server_options)" start >/dev/null 2>&1; then
    say "the server did not start again; its log:"; tail -n 20 "$dir/server.log" | sed 's/^/  /' >&2 || true
    exit 1
  fi
  url "$port"
}

start() {
  if read_state && [ -d "$dir/data" ]; then
    say "a cluster of this checkout is already running ($dir); stopping it first"
    stop
  fi
  local bin; bin=$(bindir)
  pick_owner
  dir=$(mktemp -d "${TMPDIR:-/tmp}/formulary-pg.XXXXXX")
  chmod 755 "$dir"
  [ "$(id -u)" -ne 0 ] || chown "$owner" "$dir"
  mkdir -p "$(dirname "$state")"
  # Remembered before anything can fail, so that `stop` finds what to remove.
  printf 'dir=%q\nport=\nowner=%q\n' "$dir" "$owner" > "$state"
  if ! as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 \
       --no-sync >"$dir/initdb.log" 2>&1; then
    say "initdb failed:"; sed 's/^/  /' "$dir/initdb.log" >&2; exit 1
  fi
  # A free port: the server's own bind decides (another checkout's cluster may take a port
  # between any check and the start), so try a few random ones.
  local attempt
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + RANDOM % 20000))
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
         -o "$(server_options)" start >/dev/null 2>&1; then
      printf 'dir=%q\nport=%q\nowner=%q\n' "$dir" "$port" "$owner" > "$state"
      url "$port"
      return 0
    fi
    grep -q "could not bind\|already in use" "$dir/server.log" 2>/dev/null || break
  done
  say "the server did not start; its log:"; sed 's/^/  /' "$dir/server.log" >&2 || true
  exit 1
}

stop() {
  if ! read_state; then rm -f "$state"; return 0; fi
  if [ -f "$dir/data/postmaster.pid" ]; then
    local bin; bin=$(bindir)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || {
      # pg_ctl failed (a user gone, a broken folder): end the postmaster by its own pid.
      local pid; pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null || true)
      if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null || true; fi
    }
  fi
  case "$dir" in
    */formulary-pg.*) rm -rf "$dir" ;;
  esac
  rm -f "$state"
}

status() {
  if read_state && [ -n "$port" ] && [ -f "$dir/data/postmaster.pid" ]; then url "$port"; return 0; fi
  return 1
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  halt) halt ;;
  resume) resume ;;
  *) echo "usage: scripts/pg-cluster.sh start|stop|status|halt|resume" >&2; exit 2 ;;
esac
