#!/usr/bin/env bash
# Runs every `tasks-*` scenario of the conformance suite (the tasks
# extension, 2026-07-28) against the server at URL, e.g. several instances
# behind a load balancer (examples/tests/it/scale_out_redis.rs):
#   .ci/conformance-tasks.sh http://127.0.0.1:PORT/mcp
# Installs Node 22 and the suite into target/conformance like
# .ci/conformance.sh; exits non-zero when a scenario fails, skips a check,
# or none ran. A scenario the suite has not written yet (see
# pending_in_suite) is reported as not run, never as passed.
# `bash .ci/conformance-tasks.sh --self-test` checks how a scenario's log is
# judged, against doctored logs (no suite needed); every run does that first.
set -euo pipefail

# Scenarios the suite has not written yet: it answers each with a single
# SKIPPED check named after the scenario, whatever the server does
# (tasks-status-notifications: "pending subscriptions/listen rewrite").
pending_in_suite=(tasks-status-notifications)

# scenario_status SCENARIO LOG: how the log of a run of SCENARIO that exited
# 0 reads: "passed", "pending" (the suite's placeholder, see above), or
# "failed: WHY". A skipped check is a check that did not run: it fails.
scenario_status() {
    local scenario=$1 log=$2 checks skipped problem
    # The suite colours the status even when writing to a file.
    checks=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^[^ ]+ \[[^]]*\] [A-Z]+ ' || true)
    skipped=$(grep -E '^[^ ]+ \[[^]]*\] SKIPPED ' <<<"$checks" | sed 's/^[^ ]* \[\([^] ]*\) *\].*/\1/' || true)
    if [ -n "$skipped" ]; then
        if [[ " ${pending_in_suite[*]} " == *" $scenario "* ]] && [ "$skipped" = "$scenario" ] &&
            [ "$(grep -c . <<<"$checks")" = 1 ] && grep -q '^Passed: 0/0, 0 failed' "$log"; then
            echo pending
        else
            echo "failed: skipped (not run): $(paste -sd ' ' <<<"$skipped")"
        fi
    elif problem=$(summary_problem scenario "$log" || true) && [ -n "$problem" ]; then
        echo "failed: $problem"
    else
        echo passed
    fi
}

# scenario_status_self_test: each doctored log must be judged as expected;
# prints the mismatches and returns non-zero if any.
scenario_status_self_test() {
    local dir mismatches=0 file name expected status
    dir=$(mktemp -d)
    local esc=$'\x1b'
    local line="2026-01-01T00:00:00.000Z [tasks-x              ] ${esc}[32mSUCCESS${esc}[0m Something held"
    local skip="2026-01-01T00:00:00.000Z [tasks-status-notifications] ${esc}[0mSKIPPED${esc}[0m Pending"
    local passed='Test Results:
Passed: 1/1, 0 failed, 0 warnings'
    local none='Test Results:
Passed: 0/0, 0 failed, 0 warnings'
    printf '%s\n' "Checks:" "$line" "$passed" >"$dir/tasks-x.passed"
    printf '%s\n' "Checks:" "$skip" "$none" >"$dir/tasks-status-notifications.pending"
    printf '%s\n' "Checks:" "${skip//tasks-status-notifications/tasks-x}" "$none" >"$dir/tasks-x.skipped"
    printf '%s\n' "Checks:" "$line" "${line//SUCCESS/SKIPPED}" "$passed" >"$dir/tasks-x.partly-skipped"
    printf '%s\n' "Checks:" "${line//tasks-x /tasks-status-notifications}" "$skip" "$passed" \
        >"$dir/tasks-status-notifications.pending-and-more"
    printf '%s\n' "Checks:" "$skip" "$passed" >"$dir/tasks-status-notifications.pending-counted"
    printf '%s\n' "Checks:" "${line//SUCCESS/FAILURE}" "Test Results:" \
        "Passed: 0/1, 1 failed, 0 warnings" >"$dir/tasks-x.failed"
    printf '%s\n' "Checks:" "$none" >"$dir/tasks-x.empty"
    printf '%s\n' "SKIPPED: scenario 'tasks-x' is not applicable at spec version 2025-11-25" \
        >"$dir/tasks-x.not-applicable"
    for file in "$dir"/*; do
        name=${file##*/}
        expected=${name#*.}
        case $expected in passed | pending) ;; *) expected=failed ;; esac
        status=$(scenario_status "${name%%.*}" "$file")
        if [ "${status%%:*}" != "$expected" ]; then
            echo "scenario status self-test: $name should be $expected, got: $status"
            mismatches=$((mismatches + 1))
        fi
    done
    rm -rf "$dir"
    [ "$mismatches" = 0 ]
}

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/.ci/conformance-summary.sh"

scenario_status_self_test || { echo "tasks: the scenario checks are broken" >&2; exit 1; }
if [ "${1:-}" = --self-test ]; then
    echo "tasks scenario checks: every doctored log judged as expected"
    exit 0
fi

url=${1:?usage: conformance-tasks.sh URL | --self-test}
dir=${CONFORMANCE_DIR:-$root/target/conformance}
suite=0.2.0-alpha.12

. "$root/.ci/node22.sh"

node=$(node22 "$dir/node22")
install "$dir/suite-$suite" "@modelcontextprotocol/conformance@$suite"
conformance=("$node" "$dir/suite-$suite/node_modules/@modelcontextprotocol/conformance/dist/index.js")

scenarios=$("${conformance[@]}" list | sed -n 's/^ *- \(tasks-[a-z0-9-]*\).*/\1/p')
[ -n "$scenarios" ] || { echo "tasks: the suite lists no tasks-* scenario" >&2; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=() not_run=() passed=0
for scenario in $scenarios; do
    code=0
    timeout 300 "${conformance[@]}" server --url "$url" --scenario "$scenario" >"$log" 2>&1 || code=$?
    case $code in
        0) status=$(scenario_status "$scenario" "$log") ;;
        *) status="failed: exit status $code" ;;
    esac
    case $status in
        passed) passed=$((passed + 1)) ;;
        pending) not_run+=("$scenario") status="not run: the suite has not written it yet" ;;
        *) failed+=("$scenario: $status"); cat "$log" ;;
    esac
    echo "=== $scenario: $(grep -E '^Passed: ' "$log" || echo 'no summary') ($status)"
done
[ "$passed" -gt 0 ] || failed+=("no scenario passed")
if [ ${#failed[@]} -gt 0 ]; then
    echo "tasks: ${#failed[@]} scenario(s) failed:"
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
if [ ${#not_run[@]} -gt 0 ]; then
    echo "tasks: not run (the suite has not written them yet): ${not_run[*]}"
fi
echo "tasks: $passed scenario(s) passed, ${#not_run[@]} not run, none failed"
