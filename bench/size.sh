#!/usr/bin/env bash
# Stripped sizes of the benchmark servers (see bench/README.md, "Size").
# Run after run.sh has built them (or with the same OURS_BIN).
#
# Environment (optional): OURS_BIN=path (default: the main workspace's
# target/release/echo-server).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MAIN_DIR=$(dirname "$BENCH_DIR")
OURS_BIN=${OURS_BIN:-"$MAIN_DIR/target/release/echo-server"}
BT="$BENCH_DIR/target/release"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "| binary | transports | stripped bytes | ratio to rmcp-echo-http |"
echo "| --- | --- | ---: | ---: |"
rmcp_size=""
for entry in "rmcp-echo-http:$BT/rmcp-echo-http:stdio + HTTP" \
             "echo-server:$OURS_BIN:stdio + HTTP" \
             "rmcp-echo:$BT/rmcp-echo:stdio" \
             "raw-echo:$BT/raw-echo:stdio, no protocol"; do
    IFS=: read -r name path transports <<<"$entry"
    [[ -x "$path" ]] || { echo "missing binary: $path" >&2; exit 1; }
    strip -o "$WORK/$name" "$path"
    size=$(stat -c %s "$WORK/$name")
    [[ -n "$rmcp_size" ]] || rmcp_size=$size
    ratio=$(python3 -c "print(f'{$size / $rmcp_size:.2f}')")
    echo "| $name | $transports | $size | $ratio |"
done
