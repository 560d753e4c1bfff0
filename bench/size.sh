#!/usr/bin/env bash
# Stripped sizes of the benchmark servers (see bench/README.md, "Size").
# Run after run.sh and run-http.sh have built them.
#
# Environment (optional): OURS_BIN=path (default: the examples' defaults, stdio
# and HTTP), OURS_STDIO_BIN=path (default: run.sh's build, stdio only).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OURS_BIN=${OURS_BIN:-"$BENCH_DIR/target/ours-default/release/echo-server"}
OURS_STDIO_BIN=${OURS_STDIO_BIN:-"$BENCH_DIR/target/ours-stdio/release/echo-server"}
BT="$BENCH_DIR/target/release"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "| binary | transports | stripped bytes | ratio to rmcp-echo-http |"
echo "| --- | --- | ---: | ---: |"
rmcp_size=""
for entry in "rmcp-echo-http:$BT/rmcp-echo-http:stdio + HTTP" \
             "echo-server:$OURS_BIN:stdio + HTTP" \
             "echo-server-stdio:$OURS_STDIO_BIN:stdio" \
             "rmcp-echo:$BT/rmcp-echo:stdio" \
             "raw-echo:$BT/raw-echo:stdio, no protocol"; do
    IFS=: read -r name path transports <<<"$entry"
    if [[ ! -x "$path" ]]; then
        echo "| $name | $transports | not built ($path) | |"
        continue
    fi
    strip -o "$WORK/$name" "$path"
    size=$(stat -c %s "$WORK/$name")
    [[ -n "$rmcp_size" ]] || rmcp_size=$size
    ratio=$(python3 -c "print(f'{$size / $rmcp_size:.2f}')")
    echo "| $name | $transports | $size | $ratio |"
done
