#!/usr/bin/env bash
# Compares stdio tools/call throughput, latency and memory of our echo-server
# (mcp-toolkit-runtime) with the same tools written with rmcp 3.x, using one load
# driver (bench/loadgen). See bench/README.md.
#
# Environment (all optional):
#   TOOL=add|echo            tool to call (default add: structured output)
#   CONCURRENCIES="1 64 256" in-flight requests per run
#   REQ_C1=20000             requests per run at concurrency 1
#   REQ=100000               requests per run at other concurrencies
#   WARMUP=2000              warm-up calls before each measured run
#   REPS=3                   repetitions (the table shows the per-metric median)
#   SERVERS="ours rmcp rmcp-pipes raw"   (raw: bench/raw-echo, the line-JSON floor)
#   PIN=0|1|same             1: loadgen on CPU 0, server on CPU 1; same: both
#                            on CPU 0 (needs taskset)
#   WORKERS=N                Tokio worker threads of every Tokio server
#                            (TOKIO_WORKER_THREADS; default: one per CPU)
#   OURS_BIN=path            use this echo-server instead of building it
#   SKIP_BUILD=1             use the binaries already built
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MAIN_DIR=$(dirname "$BENCH_DIR")
export CARGO_TARGET_DIR="$BENCH_DIR/target"

TOOL=${TOOL:-add}
CONCURRENCIES=${CONCURRENCIES:-"1 64 256"}
REQ_C1=${REQ_C1:-20000}
REQ=${REQ:-100000}
WARMUP=${WARMUP:-2000}
REPS=${REPS:-3}
SERVERS=${SERVERS:-"ours rmcp rmcp-pipes raw"}
PIN=${PIN:-0}

if [[ -z "${SKIP_BUILD:-}" ]]; then
    if [[ -z "${OURS_BIN:-}" ]]; then
        echo "== building echo-server (main workspace, release)" >&2
        # The examples' defaults (stdio and HTTP), as a user builds it; own
        # target dir, shared with run-http.sh.
        (cd "$MAIN_DIR" && env -u CARGO_TARGET_DIR cargo build --release -p mcp-examples --bin echo-server --target-dir "$BENCH_DIR/target/ours-default")
    fi
    echo "== building rmcp-echo, raw-echo and loadgen (bench workspace, release)" >&2
    (cd "$BENCH_DIR" && cargo build --release -p rmcp-echo -p raw-echo -p loadgen)
fi

OURS_BIN=${OURS_BIN:-"$BENCH_DIR/target/ours-default/release/echo-server"}
RMCP_BIN="$CARGO_TARGET_DIR/release/rmcp-echo"
RAW_BIN="$CARGO_TARGET_DIR/release/raw-echo"
LOADGEN="$CARGO_TARGET_DIR/release/loadgen"
for bin in "$OURS_BIN" "$RMCP_BIN" "$RAW_BIN" "$LOADGEN"; do
    [[ -x "$bin" ]] || { echo "missing binary: $bin" >&2; exit 1; }
done

server_cmd() {
    case "$1" in
        ours) echo "$OURS_BIN" ;;
        rmcp) echo "$RMCP_BIN" ;;
        rmcp-pipes) echo "$RMCP_BIN --pipes" ;;
        raw) echo "$RAW_BIN" ;;
        *) echo "unknown server $1" >&2; exit 1 ;;
    esac
}

# shellcheck source=machine.sh
source "$BENCH_DIR/machine.sh"
pin_prefixes
apply_workers

mkdir -p "$BENCH_DIR/results"
OUT="$BENCH_DIR/results/$(date -u +%Y%m%dT%H%M%SZ)-$TOOL.jsonl"
echo "== $(run_summary), tool=$TOOL, concurrencies=[$CONCURRENCIES], reps=$REPS; raw results: $OUT" >&2

# Repetitions are interleaved (rep 1 of every server and concurrency, then
# rep 2, ...) so that slow drift of the machine hits all servers alike.
for rep in $(seq 1 "$REPS"); do
    for c in $CONCURRENCIES; do
        n=$REQ
        [[ "$c" == 1 ]] && n=$REQ_C1
        for s in $SERVERS; do
            line=$("${LG_PREFIX[@]}" "$LOADGEN" --server "$SRV_PREFIX$(server_cmd "$s")" --name "$s" \
                --requests "$n" --concurrency "$c" --tool "$TOOL" --warmup "$WARMUP" --max-seconds 120)
            echo "$line" >>"$OUT"
            python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("rep %s %-10s c=%-4d %8.0f req/s  p50 %8.1f us  p99 %9.1f us  peak RSS %6d KiB" % (sys.argv[2], d["server"], d["concurrency"], d["rps"], d["p50_us"], d["p99_us"], d["peak_rss_kib"]))' "$line" "$rep" >&2
        done
    done
done

PAIRS=()
for s in $SERVERS; do
    if [[ "$s" != ours ]]; then PAIRS+=("ours:$s"); fi
done
python3 "$BENCH_DIR/tables.py" "$OUT" 5 "${PAIRS[@]}"
