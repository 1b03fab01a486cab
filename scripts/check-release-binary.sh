#!/bin/sh
# Checks that a release build of formulary carries none of the test hooks (Package.swift
# compiles them into debug builds only): no FORMULARY_TEST_ variable name is in the binary,
# and FORMULARY_TEST_FAULT, which a debug build obeys, changes nothing. `make test` runs it
# on the release binary it builds for the contract check.
#
#   scripts/check-release-binary.sh [BINARY]     (default .build/release/formulary)
set -eu

bin=${1:-.build/release/formulary}
if [ ! -x "$bin" ]; then
  echo "check-release-binary: $bin is not an executable; build it with 'make release'" >&2
  exit 2
fi

failed=0

# A variable the binary reads is a string in it; a hook compiled out leaves none behind.
names=$(LC_ALL=C grep -a -o 'FORMULARY_TEST_[A-Z_]*' "$bin" | sort -u | tr '\n' ' ')
if [ -n "$names" ]; then
  echo "check-release-binary: $bin names test hooks: $names(they belong in debug builds only; see Package.swift)" >&2
  failed=1
fi

# And the fault hook does nothing: a debug build fails these SQLite steps with exit 3.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() {  # FAULT DATABASE ARGUMENT…
  fault=$1 db=$2
  shift 2
  if ! env -i PATH=/usr/bin:/bin HOME="$work" FORMULARY_PATH= FORMULARY_TODAY=2026-11-29 \
      FORMULARY_TEST_FAULT="$fault" "$bin" --db "$work/$db" "$@" >"$work/out" 2>&1; then
    echo "check-release-binary: FORMULARY_TEST_FAULT=$fault made 'formulary $*' fail:" >&2
    sed 's/^/  /' "$work/out" >&2
    failed=1
  fi
}
check step:1:full new.db init
check "" listed.db init
check step:3:full listed.db types list

if [ "$failed" -ne 0 ]; then exit 1; fi
echo "check-release-binary: $bin has no test hooks"
