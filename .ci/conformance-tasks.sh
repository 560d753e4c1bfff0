#!/usr/bin/env bash
# Runs every `tasks-*` scenario of the conformance suite (the tasks
# extension, 2026-07-28) against the server at URL, e.g. several instances
# behind a load balancer (examples/tests/scale_out_redis.rs):
#   .ci/conformance-tasks.sh http://127.0.0.1:PORT/mcp
# Installs Node 22 and the suite into target/conformance like
# .ci/conformance.sh; exits non-zero when a scenario fails or none ran.
set -euo pipefail

url=${1:?usage: conformance-tasks.sh URL}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CONFORMANCE_DIR:-$root/target/conformance}
suite=0.2.0-alpha.12

. "$root/.ci/node22.sh"
. "$root/.ci/conformance-summary.sh"

node=$(node22 "$dir/node22")
install "$dir/suite-$suite" "@modelcontextprotocol/conformance@$suite"
conformance=("$node" "$dir/suite-$suite/node_modules/@modelcontextprotocol/conformance/dist/index.js")

scenarios=$("${conformance[@]}" list | sed -n 's/^ *- \(tasks-[a-z0-9-]*\).*/\1/p')
[ -n "$scenarios" ] || { echo "tasks: the suite lists no tasks-* scenario" >&2; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=() passed=0
for scenario in $scenarios; do
    status=passed
    if ! timeout 300 "${conformance[@]}" server --url "$url" --scenario "$scenario" >"$log" 2>&1; then
        status=failed
    elif grep -q '^Passed: 0/0, 0 failed' "$log" && grep -q 'SKIPPED' "$log"; then
        # The suite itself skips a scenario it has not written yet (it says
        # why); that is no failure, and no pass either.
        status="skipped by the suite: $(grep -o 'SKIPPED.*' "$log" | head -1)"
    elif problem=$(summary_problem scenario "$log" || true) && [ -n "$problem" ]; then
        status="failed: $problem"
    fi
    case $status in
        passed) passed=$((passed + 1)) ;;
        failed*) failed+=("$scenario: $status"); cat "$log" ;;
    esac
    echo "=== $scenario: $(grep -E '^Passed: ' "$log" || echo 'no summary') ($status)"
done
[ "$passed" -gt 0 ] || failed+=("no scenario passed")
if [ ${#failed[@]} -gt 0 ]; then
    echo "tasks: ${#failed[@]} scenario(s) failed:"
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
echo "tasks: every scenario passed"
