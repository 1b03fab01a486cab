#!/usr/bin/env bash
# Runs a command (the test suite) with FORMULARY_TEST_POSTGRES_URL set to a throw-away
# cluster (scripts/pg-cluster.sh), and stops the cluster when the command ends, pass or fail.
# When FORMULARY_TEST_POSTGRES_URL is already set, that server is used and nothing is started.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ -n "${FORMULARY_TEST_POSTGRES_URL:-}" ]; then
  echo "with-pg-cluster: using the server of FORMULARY_TEST_POSTGRES_URL" >&2
  exec "$@"
fi

trap '"$here/pg-cluster.sh" stop' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
url=$("$here/pg-cluster.sh" start)
echo "with-pg-cluster: test cluster at $url" >&2
export FORMULARY_TEST_POSTGRES_URL=$url
"$@"
