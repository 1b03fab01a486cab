#!/usr/bin/env bash
# Builds and runs Formulary's libFuzzer targets (see docs/reliability.md, "Fuzzing").
#
#   scripts/fuzz.sh build            build every target into fuzz/build/
#   scripts/fuzz.sh run [TARGET…]    build, then run each target for FUZZ_SECONDS (default 300)
#   scripts/fuzz.sh TARGET FILE…     build, then replay crash or corpus files through TARGET
#
# Targets: plugin (the rule-language parser, resolver, compiler and engine), csv (the
# CSV reader) and jsonl (the JSON Lines reader). SwiftPM cannot build libFuzzer
# executables, so the package's modules are compiled here with swiftc directly,
# instrumented (-sanitize=fuzzer,address), one object per module, and linked with each
# target's entry point in fuzz/<Target>Fuzzer.swift.
#
# Environment: FUZZ_SECONDS (per target), FUZZ_MAX_LEN (bytes, default 4096),
# FUZZ_FLAGS (extra libFuzzer flags), SWIFTC (default: swiftc on PATH).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=$ROOT/fuzz/build
SWIFTC=${SWIFTC:-swiftc}
FUZZ_SECONDS=${FUZZ_SECONDS:-300}
FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-4096}
TARGETS=(plugin csv jsonl)
# -O with assertions kept in the fuzzed code: a precondition failure is a finding.
# One package name for every module, so the fuzzers reach the `package` hot path as SwiftPM's targets do.
FLAGS=(-O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -package-name formulary
       -I "$BUILD" -I Sources/CSQLite -I Sources/CCrypto)
LIBS=(-lsqlite3 -lcrypto)
MODULES=(FormularyJSON FormularyRules FormularyStore FormularyKit)

# The linker (gold) warns about every ASan helper it cannot export; nothing else is printed.
quiet() { "$@" 2> >(grep -v "Cannot export local symbol" >&2); }

newer_than() {   # newer_than OUTPUT INPUT… : true when OUTPUT is missing or older than an input
    local out=$1; shift
    [ -e "$out" ] || return 0
    [ -n "$(find "$@" -newer "$out" -print -quit)" ]
}

build_module() {   # build_module MODULE [DEPENDENCY…]
    local module=$1; shift
    local sources=(); mapfile -t sources < <(find "Sources/$module" -name '*.swift' | sort)
    local deps=(); for d in "$@"; do deps+=("$BUILD/$d.swiftmodule"); done
    if newer_than "$BUILD/$module.o" "${sources[@]}" "${deps[@]}"; then
        echo "fuzz: compiling $module (${#sources[@]} files)"
        "$SWIFTC" "${FLAGS[@]}" -module-name "$module" -wmo -c "${sources[@]}" \
            -emit-module -emit-module-path "$BUILD/$module.swiftmodule" -o "$BUILD/$module.o"
    fi
}

build_target() {
    local target=$1 name
    name="$(tr '[:lower:]' '[:upper:]' <<<"${target:0:1}")${target:1}Fuzzer"
    local entry=fuzz/$name.swift
    local objects=(); for m in "${MODULES[@]}"; do objects+=("$BUILD/$m.o"); done
    if newer_than "$BUILD/$target-fuzzer" "$entry" "${objects[@]}"; then
        echo "fuzz: linking $target-fuzzer"
        quiet "$SWIFTC" "${FLAGS[@]}" -module-name "$name" "$entry" "${objects[@]}" "${LIBS[@]}" \
            -o "$BUILD/$target-fuzzer"
    fi
}

build() {
    mkdir -p "$BUILD"
    # Each module after the ones it imports.
    local built=()
    for m in "${MODULES[@]}"; do build_module "$m" "${built[@]}"; built+=("$m"); done
    for t in "${TARGETS[@]}"; do build_target "$t"; done
}

# Runs one target on its generated corpus (fuzz/corpus/<target>, gitignored), seeded from
# the committed seeds (fuzz/corpus/<target>-seeds). One process, no -jobs/-workers: the machine is shared.
run_target() {
    local target=$1
    local corpus=fuzz/corpus/$target seeds=fuzz/corpus/$target-seeds
    mkdir -p "$corpus" "$BUILD/artifacts"
    local dict=(); [ -f "fuzz/$target.dict" ] && dict=(-dict="fuzz/$target.dict")
    echo "fuzz: running $target for ${FUZZ_SECONDS}s"
    # Without allocation stacks ASan spends a third less time per input; replay a finding
    # (scripts/fuzz.sh TARGET FILE) to get full reports.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0:quarantine_size_mb=64}
    # Swift's own crash backtracer, started under ASan, can hang after a finding and keep
    # this pipeline waiting; libFuzzer prints the stack itself.
    export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
    # libFuzzer exits non-zero on a finding and leaves the input in fuzz/build/artifacts/.
    "$BUILD/$target-fuzzer" "$corpus" "$seeds" "${dict[@]}" \
        -max_total_time="$FUZZ_SECONDS" -max_len="$FUZZ_MAX_LEN" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$BUILD/artifacts/$target-" \
        ${FUZZ_FLAGS:-} 2>&1 | tee "$BUILD/$target.log" | grep -E "^(#[0-9]+.*(pulse|DONE)|stat::|==|SUMMARY|artifact_prefix|Test unit written|INFO: Seed)" || true
    local status=${PIPESTATUS[0]}
    grep -E "stat::number_of_executed_units|stat::average_exec_per_sec" "$BUILD/$target.log" \
        | sed "s/^/fuzz: $target: /"
    return "$status"
}

case "${1:-run}" in
    build) build ;;
    run)
        shift || true
        build
        status=0
        chosen=("$@"); [ ${#chosen[@]} -gt 0 ] || chosen=("${TARGETS[@]}")
        for t in "${chosen[@]}"; do run_target "$t" || status=$?; done
        exit $status ;;
    plugin|csv|jsonl)
        target=$1; shift
        build
        "$BUILD/$target-fuzzer" "$@" ;;
    *) echo "usage: $0 [build | run [TARGET…] | TARGET FILE…]" >&2; exit 2 ;;
esac
