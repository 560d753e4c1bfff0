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
valgrind --tool=callgrind --callgrind-out-file="$out" "$@" 2>/dev/null &
echo $! >"$pidfile"
wait
EOF
chmod +x "$WORK/wrap.sh"

# Total instructions of one server run with $3 measured calls.
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
    awk '/^(summary|totals):/ { print $2 }' "$out" | tail -1
}

echo "| server | protocol | instructions per call |"
echo "| --- | --- | ---: |"
for s in $SERVERS; do
    spec=$(server_spec "$s")
    small=$(total "$s" "$spec" "$SMALL")
    large=$(total "$s" "$spec" "$LARGE")
    echo "| $s | ${spec#*|} | $(( (large - small) / (LARGE - SMALL) )) |"
done
