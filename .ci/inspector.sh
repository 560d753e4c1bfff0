#!/usr/bin/env bash
# Runs the MCP Inspector's command-line mode against a stdio server, in
# either protocol era:
#   legacy: @modelcontextprotocol/inspector-cli@1.0.3 (initialize handshake,
#           protocol version 2025-11-25)
#   modern: @modelcontextprotocol/inspector@2.12.0 --cli, the server entry of
#           its --config file saying "protocolEra": "modern" (2026-07-28;
#           without it an ad-hoc stdio target talks legacy)
#
# Usage:
#   .ci/inspector.sh install
#   .ci/inspector.sh legacy|modern [INSPECTOR OPTIONS...] -- COMMAND [ARGS...]
# e.g. .ci/inspector.sh modern --method tools/call --tool-name add \
#          --tool-arg a=2 b=3 -- target/debug/echo-server
#
# Prints the inspector's result (pretty-printed JSON, the same shape in both
# eras) on stdout and exits with the inspector's status. Node 22 is shared
# with .ci/conformance.sh (target/conformance/node22); the inspectors go to
# target/inspector. Both are installed from npm once; later runs reuse them.
#
# Environment: INSPECTOR_DIR overrides target/inspector, CONFORMANCE_DIR
# target/conformance; INSPECTOR_TIMEOUT (default 120) bounds one run, in
# seconds.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${INSPECTOR_DIR:-$root/target/inspector}
node_dir=${CONFORMANCE_DIR:-$root/target/conformance}/node22
legacy_version=1.0.3
modern_version=2.12.0
usage="usage: $0 install | $0 legacy|modern [INSPECTOR OPTIONS...] -- COMMAND [ARGS...]"

. "$root/.ci/node22.sh"

command -v npm >/dev/null || { echo "inspector: npm is required" >&2; exit 1; }
node=$(node22 "$node_dir")
install "$dir/cli-$legacy_version" "@modelcontextprotocol/inspector-cli@$legacy_version"
install "$dir/inspector-$modern_version" "@modelcontextprotocol/inspector@$modern_version"

era=${1:-}
[ "$era" = install ] && exit 0
[ "$era" = legacy ] || [ "$era" = modern ] || { echo "$usage" >&2; exit 2; }
shift
options=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    options+=("$1")
    shift
done
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
shift
# A relative server path would break under the legacy run's cd.
case $1 in */*) set -- "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" "${@:2}" ;; esac
timeout=${INSPECTOR_TIMEOUT:-120}

if [ "$era" = legacy ]; then
    # build/index.js is the CLI itself (build/cli.js would start it with
    # whatever `node` is on PATH). It looks for its package.json at
    # ../package.json relative to the working directory, hence the cd. The
    # server command goes first, its arguments after `--`.
    cd "$dir/cli-$legacy_version/node_modules/@modelcontextprotocol/inspector-cli/build"
    exec timeout "$timeout" "$node" index.js "$1" "${options[@]}" -- "${@:2}"
fi

config=$(mktemp --suffix=.json)
trap 'rm -f "$config"' EXIT
"$node" -e '
    const [command, ...args] = process.argv.slice(1);
    const server = { command, args, protocolEra: "modern" };
    process.stdout.write(JSON.stringify({ mcpServers: { server } }));
' -- "$@" >"$config"
# No OS keychain in CI: keep the (unused) secret store in memory instead of
# probing for one.
status=0
MCP_INSPECTOR_SECRET_STORE=memory timeout "$timeout" "$node" \
    "$dir/inspector-$modern_version/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js" \
    --cli --config "$config" --server server "${options[@]}" || status=$?
exit "$status"
