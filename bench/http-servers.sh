# The Streamable HTTP benchmark servers, shared by run-http.sh and
# callgrind-http.sh (sourced, not run). Expects BENCH_DIR; OURS_BIN may be
# set beforehand to benchmark another echo-server.

OURS_BIN=${OURS_BIN:-"$BENCH_DIR/target/ours-default/release/echo-server"}
RMCP_BIN="$BENCH_DIR/target/release/rmcp-echo-http"
RAW_BIN="$BENCH_DIR/target/release/raw-echo-http"
FLOOR_BIN="$BENCH_DIR/target/release/raw-echo-blocking"
LOADGEN="$BENCH_DIR/target/release/loadgen"
LEGACY=2025-11-25
MODERN=2026-07-28

# "command|protocol" of each server; loadgen replaces {port} with a free port.
server_spec() {
    case "$1" in
        ours-session) echo "$OURS_BIN --http 127.0.0.1:{port}|$LEGACY" ;;
        ours-modern) echo "$OURS_BIN --http 127.0.0.1:{port}|$MODERN" ;;
        rmcp-session) echo "$RMCP_BIN --http 127.0.0.1:{port}|$LEGACY" ;;
        rmcp-stateless) echo "$RMCP_BIN --http 127.0.0.1:{port} --stateless|$LEGACY" ;;
        rmcp-modern) echo "$RMCP_BIN --http 127.0.0.1:{port} --stateless|$MODERN" ;;
        raw) echo "$RAW_BIN --http 127.0.0.1:{port}|$MODERN" ;;
        floor) echo "$FLOOR_BIN --http 127.0.0.1:{port}|$MODERN" ;;
        # Busy-polls a core per connection: for comparison, never a default.
        floor-spin) echo "$FLOOR_BIN --http 127.0.0.1:{port} --spin|$MODERN" ;;
        *) echo "unknown server $1" >&2; exit 1 ;;
    esac
}

# Fails unless every binary the servers and the driver need is built.
require_binaries() {
    local bin
    for bin in "$OURS_BIN" "$RMCP_BIN" "$RAW_BIN" "$FLOOR_BIN" "$LOADGEN"; do
        [[ -x "$bin" ]] || { echo "missing binary: $bin (run run-http.sh first)" >&2; exit 1; }
    done
}
