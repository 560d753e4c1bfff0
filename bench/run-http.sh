#!/usr/bin/env bash
# Compares Streamable HTTP tools/call throughput, latency and memory of our
# echo-server (mcp-toolkit-runtime) with the same tools written with rmcp 3.x
# (bench/rmcp-echo, binary rmcp-echo-http), using one load driver (bench/loadgen --url). See
# bench/README.md, section "Streamable HTTP".
#
# Environment (all optional):
#   TOOL=add|echo            tool to call (default add: structured output)
#   CONCURRENCIES="1 16 64"  requests in flight (one connection each)
#   REQ_C1=20000             requests per run at concurrency 1
#   REQ=50000                requests per run at other concurrencies
#   WARMUP=2000              warm-up calls before each measured run
#   REPS=3                   repetitions (the table shows the per-metric median)
#   SERVERS="ours-session rmcp-session rmcp-stateless ours-modern rmcp-modern raw floor"
#                            (raw: bench/raw-echo's raw-echo-http, the floor of
#                            JSON over hyper HTTP/1.1, sent 2026-07-28 requests;
#                            floor: raw-echo-blocking, the same work with a
#                            blocking thread per connection and no runtime;
#                            floor-spin, not run unless named: the same
#                            busy-polling its sockets, a core per connection)
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
CONCURRENCIES=${CONCURRENCIES:-"1 16 64"}
REQ_C1=${REQ_C1:-20000}
REQ=${REQ:-50000}
WARMUP=${WARMUP:-2000}
REPS=${REPS:-3}
SERVERS=${SERVERS:-"ours-session rmcp-session rmcp-stateless ours-modern rmcp-modern raw floor"}
PIN=${PIN:-0}

if [[ -z "${SKIP_BUILD:-}" ]]; then
    if [[ -z "${OURS_BIN:-}" ]]; then
        echo "== building echo-server (main workspace, release)" >&2
        # The examples' defaults: stdio and Streamable HTTP, as
        # rmcp-echo-http carries both. Own target dir (see run.sh).
        (cd "$MAIN_DIR" && env -u CARGO_TARGET_DIR cargo build --release -p mcp-examples --bin echo-server --target-dir "$BENCH_DIR/target/ours-default")
    fi
    echo "== building rmcp-echo, raw-echo and loadgen (bench workspace, release)" >&2
    (cd "$BENCH_DIR" && cargo build --release -p rmcp-echo -p raw-echo -p loadgen)
fi

# shellcheck source=http-servers.sh
source "$BENCH_DIR/http-servers.sh"
require_binaries

mkdir -p "$BENCH_DIR/results"
OUT="$BENCH_DIR/results/$(date -u +%Y%m%dT%H%M%SZ)-http-$TOOL.jsonl"
# shellcheck source=machine.sh
source "$BENCH_DIR/machine.sh"
pin_prefixes
apply_workers
echo "== $(run_summary), tool=$TOOL, concurrencies=[$CONCURRENCIES], reps=$REPS; raw results: $OUT" >&2

# Repetitions are interleaved (rep 1 of every server and concurrency, then
# rep 2, ...), and the order of the servers rotates from one rep to the next,
# so that slow drift of the machine hits all servers alike.
read -r -a ORDER <<<"$SERVERS"
for rep in $(seq 1 "$REPS"); do
    for c in $CONCURRENCIES; do
        n=$REQ
        [[ "$c" == 1 ]] && n=$REQ_C1
        for s in "${ORDER[@]}"; do
            spec=$(server_spec "$s")
            line=$("${LG_PREFIX[@]}" "$LOADGEN" --server "$SRV_PREFIX${spec%|*}" --url "http://127.0.0.1:{port}/mcp" --protocol "${spec#*|}" \
                --name "$s" --requests "$n" --concurrency "$c" --tool "$TOOL" --warmup "$WARMUP" --max-seconds 120 \
                2> >(grep -v '^listening on ' >&2))
            echo "$line" >>"$OUT"
            python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("rep %s %-15s c=%-3d %8.0f req/s  p50 %8.1f us  p99 %9.1f us  peak RSS %6d KiB  load %s" % (sys.argv[2], d["server"], d["concurrency"], d["rps"], d["p50_us"], d["p99_us"], d["peak_rss_kib"], sys.argv[3]))' \
                "$line" "$rep" "$(cut -d' ' -f1 /proc/loadavg)" >&2
        done
    done
    ORDER=("${ORDER[@]:1}" "${ORDER[0]}")
done

python3 "$BENCH_DIR/tables.py" "$OUT" 2 \
    ours-session:rmcp-session ours-session:rmcp-stateless ours-modern:rmcp-modern ours-modern:rmcp-stateless \
    ours-session:raw ours-modern:raw raw:rmcp-modern ours-modern:floor floor:rmcp-modern floor-spin:rmcp-modern
