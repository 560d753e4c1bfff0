#!/usr/bin/env bash
# Issue 14's acceptance in one run: every measurement it names, each in the
# configuration bench/README.md ("The acceptance run") gives its reasons for.
#
#   stdio   `add` and `echo`: 1 in flight with loadgen and the server on one
#           CPU (PIN=same); 32 and 64 in flight unpinned, Tokio's default
#           workers (TUNED=1: one per server, the other core left to loadgen).
#   http    `add`, both eras: 1 in flight with PIN=same; 16 and 64 in flight
#           with the default workers (TUNED=1: one).
#   Ours is echo-server built with the examples' defaults (issue 35).
#   size    stripped sizes (size.sh).
#   build   cold release build of the minimal stdio server, then the
#           200-tool crate in release (compile-time/).
#   codegen `cargo check` of the generated 2,000-tool client (codegen-check/).
#
# Knobs: STEPS (default "stdio http size build codegen"), REPS (3),
# SKIP_BUILD=1 (use the benchmark binaries already built), TUNED=1. The tables go to
# stdout and to bench/results/acceptance-<UTC time>/<step>.md (git-ignored).
# It took 34 minutes on the 2-core machine; nothing else should run.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STEPS=${STEPS:-"stdio http size build codegen"}
export REPS=${REPS:-3}
OUT_DIR="$BENCH_DIR/results/acceptance-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT_DIR"

# Tokio's default worker count (one per CPU), as a user's #[tokio::main]
# runs; TUNED=1 gives 32/64 and 16/64 in flight one worker per server, the
# earlier tuned configuration (a second table).
workers=${TUNED:+1}

# The first benchmark of each transport builds its binaries; the rest reuse them.
built_stdio=${SKIP_BUILD:-}
built_http=${SKIP_BUILD:-}

# Runs one measurement with the given environment, its tables (stdout)
# appended to the step's file, its progress (stderr) to the terminal.
measure() {
    local step=$1
    shift
    echo "== $step: $*" | tee -a "$OUT_DIR/$step.md" >&2
    env "$@" | tee -a "$OUT_DIR/$step.md"
}

for step in $STEPS; do
    case "$step" in
        stdio)
            for tool in add echo; do
                measure stdio SKIP_BUILD="$built_stdio" TOOL=$tool PIN=same CONCURRENCIES=1 REQ_C1=60000 "$BENCH_DIR/run.sh"
                built_stdio=1
                measure stdio SKIP_BUILD=1 TOOL=$tool WORKERS="$workers" CONCURRENCIES="32 64" REQ=600000 "$BENCH_DIR/run.sh"
            done
            ;;
        http)
            measure http SKIP_BUILD="$built_http" PIN=same CONCURRENCIES=1 REQ_C1=40000 "$BENCH_DIR/run-http.sh"
            built_http=1
            measure http SKIP_BUILD=1 WORKERS="$workers" CONCURRENCIES="16 64" REQ=200000 "$BENCH_DIR/run-http.sh"
            ;;
        size) measure size "$BENCH_DIR/size.sh" ;;
        build)
            measure build RUNS=3 "$BENCH_DIR/compile-time/minimal.sh"
            measure build RUNS=3 PROFILES=release "$BENCH_DIR/compile-time/run.sh"
            ;;
        codegen) measure codegen RUNS=2 "$BENCH_DIR/codegen-check/run.sh" ;;
        *) echo "unknown step $step (stdio, http, size, build, codegen)" >&2; exit 1 ;;
    esac
done
echo "== tables in $OUT_DIR" >&2
