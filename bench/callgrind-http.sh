#!/usr/bin/env bash
# Instructions per Streamable HTTP tools/call of each benchmark server, the
# whole process (hyper, Tokio, allocator and ours) counted by callgrind, not
# timed: unlike req/s, the figure does not move with the VM's load. See
# bench/README.md, "At the floor" (instructions over a socket).
#
# Each server runs under `valgrind --tool=callgrind` twice, driven by loadgen
# at 1 in flight with SMALL and then LARGE measured calls (200 warm-up calls
# each); the difference of the two totals over LARGE - SMALL is the cost of
# one call, start-up and shutdown left out. Run run-http.sh first (it builds
# the binaries). Needs valgrind.
#
# Environment (all optional):
#   SERVERS="ours-session rmcp-session ours-modern rmcp-modern raw"
#   SMALL=1000 LARGE=3000     measured calls of the two runs
#   OURS_BIN=path             default: run-http.sh's build
#   CACHE=1                   also simulate the first-level caches (the host's
#                             sizes) and add first-level instruction misses
#                             and data write misses per call: the code a
#                             call walks through and the fresh memory it
#                             writes, which instructions alone do not show
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=http-servers.sh
source "$BENCH_DIR/http-servers.sh"
require_binaries
SERVERS=${SERVERS:-"ours-session rmcp-session ours-modern rmcp-modern raw"}
SMALL=${SMALL:-1000}
LARGE=${LARGE:-3000}
(( LARGE > SMALL )) || { echo "LARGE must exceed SMALL" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }

WORK=$(mktemp -d)
# A server still under valgrind (the script stopped halfway) is stopped too.
cleanup() {
    local pidfile
    for pidfile in "$WORK"/*.pid; do
        [[ -f "$pidfile" ]] && { kill -TERM "$(cat "$pidfile")" 2>/dev/null || true; }
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
# loadgen kills the process it started with SIGKILL, after which callgrind
# writes nothing; so it starts this wrapper, which keeps valgrind's pid for
# a SIGTERM that lets callgrind write its totals.
cat >"$WORK/wrap.sh" <<'EOF'
#!/usr/bin/env bash
out=$1 pidfile=$2
shift 2
valgrind --tool=callgrind ${CACHE_SIM:-} --callgrind-out-file="$out" "$@" 2>/dev/null &
echo $! >"$pidfile"
wait
EOF
chmod +x "$WORK/wrap.sh"

CACHE=${CACHE:-}
# The wrapper runs in its own shell: the knob goes through the environment.
export CACHE_SIM=${CACHE:+--cache-sim=yes}

# Totals of one server run with $3 measured calls: instructions, and with
# CACHE=1 first-level instruction misses and data write misses.
total() {
    local name=$1 spec=$2 calls=$3
    local out="$WORK/$name-$calls.cg" pidfile="$WORK/$name-$calls.pid"
    "$LOADGEN" --server "$WORK/wrap.sh $out $pidfile ${spec%|*}" \
        --url "http://127.0.0.1:{port}/mcp" --protocol "${spec#*|}" --name "$name" \
        --requests "$calls" --concurrency 1 --tool add --warmup 200 \
        --timeout-ms 30000 --max-seconds 900 >/dev/null 2>"$WORK/$name.err" ||
        { cat "$WORK/$name.err" >&2; exit 1; }
    local pid
    pid=$(cat "$pidfile")
    kill -TERM "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    rm -f "$pidfile"
    # Events are Ir [Dr Dw I1mr D1mr D1mw ...]; a file has summary: and totals:.
    awk '/^(summary|totals):/ { t = $2; if (NF >= 7) t = t " " $5 " " $7 } END { print t }' "$out"
}

# One figure per call: the difference of the two runs' totals.
per_call() {
    echo $(( ($2 - $1) / (LARGE - SMALL) ))
}

if [[ -n "$CACHE" ]]; then
    echo "| server | protocol | instructions per call | I1 misses per call | D1 write misses per call |"
    echo "| --- | --- | ---: | ---: | ---: |"
else
    echo "| server | protocol | instructions per call |"
    echo "| --- | --- | ---: |"
fi
for s in $SERVERS; do
    spec=$(server_spec "$s")
    read -r -a small <<<"$(total "$s" "$spec" "$SMALL")"
    read -r -a large <<<"$(total "$s" "$spec" "$LARGE")"
    row="| $s | ${spec#*|} | $(per_call "${small[0]}" "${large[0]}") |"
    if [[ -n "$CACHE" ]]; then
        row+=" $(per_call "${small[1]}" "${large[1]}") | $(per_call "${small[2]}" "${large[2]}") |"
    fi
    echo "$row"
done
