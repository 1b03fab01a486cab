#!/usr/bin/env bash
# The HTTP bench: `formulary serve` (release build) on loopback, loaded by wrk with 64
# keep-alive connections on /v1/check and /v1/edit; prints wrk's figures (requests/s and
# latency percentiles). Installs wrk from Debian when it is missing.
# Usage: bench/http/run.sh [SECONDS]   (default 10 s per endpoint)
# THREADS: the server's worker threads (default 1: on the 2-core bench machine wrk's two
# threads take the other core's share, and one server thread gave the steadier tail);
# WRK_THREADS: wrk's threads (default 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
if ! command -v wrk >/dev/null; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get install -y -qq wrk >/dev/null
fi
bin=.build/release/formulary
[ -x "$bin" ] || swift build -c release --product formulary
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin" --db "$work/b.db" init >/dev/null
"$bin" --db "$work/b.db" serve --public-read --listen 127.0.0.1:0 --threads "${THREADS:-1}" 2>"$work/serve.log" &
pid=$!
for _ in $(seq 100); do grep -q "http://" "$work/serve.log" && break; sleep 0.1; done
port=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | head -1 | cut -d: -f3)
for endpoint in check edit; do
  echo "== POST /v1/$endpoint, 64 connections, ${seconds}s"
  wrk -t"${WRK_THREADS:-2}" -c64 -d"${seconds}s" --latency -s "bench/http/$endpoint.lua" "http://127.0.0.1:$port/v1/$endpoint" \
    | grep -E "Requests/sec|Latency|50%|90%|99%|requests in|Non-2xx"
done
