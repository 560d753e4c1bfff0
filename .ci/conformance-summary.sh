# Sourced by conformance.sh: reads a conformance-suite run's log and decides
# from its summary lines, not from its exit status alone, whether the run
# passed. A run that exits 0 but ran no scenario, skipped its scenario or
# printed no summary has proven nothing, so it fails here.
#
# `bash .ci/conformance-summary.sh` checks the checker against doctored
# summaries (no suite needed); conformance.sh runs that first too.

# summary_problem KIND LOG: prints why LOG is not a complete, passing run
# of KIND, or nothing when it is. KIND is one of
#   suite         many server scenarios: "=== SUMMARY ===", one
#                 "✓ SCENARIO: N passed, 0 failed" line each (at least one,
#                 none ✗), then "Total: N passed, 0 failed" with N > 0;
#   requirements  a suite run with --requirements, which also prints
#                 "Not scored for V: N scenario(s) run, 0 failing";
#   scenario      one server scenario: "Passed: N/N, 0 failed, ..." with N > 0;
#   client        one client scenario: the same line and "OVERALL: PASSED";
#   clientreq     a client run with --requirements: "=== SUITE SUMMARY ===",
#                 one line per scenario, every scored one (those not listed
#                 under "Not scored for V: ...") "✓ ...: N passed, 0 failed",
#                 at least one of them. Not-scored extension scenarios may
#                 fail: the requirements do not ask for them.
summary_problem() {
    local kind=$1 log=$2 summary scenarios bad total passed failed
    case $kind in
    suite | requirements)
        if ! grep -q '^=== SUMMARY ===$' "$log"; then
            echo "no '=== SUMMARY ===' line"
            return
        fi
        summary=$(sed -n '/^=== SUMMARY ===$/,$p' "$log")
        scenarios=$(grep -cE '^[✓✗] .*: [0-9]+ passed, [0-9]+ failed$' <<<"$summary" || true)
        bad=$(grep -E '^[✓✗] ' <<<"$summary" | grep -cvE '^✓ .*: [0-9]+ passed, 0 failed$' || true)
        total=$(grep -E '^Total: [0-9]+ passed, [0-9]+ failed$' <<<"$summary" || true)
        passed=$(sed -n 's/^Total: \([0-9]*\) passed.*/\1/p' <<<"$total")
        failed=$(sed -n 's/^Total: [0-9]* passed, \([0-9]*\) failed$/\1/p' <<<"$total")
        if [ "$scenarios" = 0 ]; then
            echo "the summary lists no scenario"
        elif [ "$bad" != 0 ]; then
            echo "$bad scenario(s) in the summary did not pass"
        elif [ "$(wc -l <<<"$total")" != 1 ] || [ -z "$passed" ]; then
            echo "no single 'Total: N passed, M failed' line"
        elif [ "$failed" != 0 ] || [ "$passed" = 0 ]; then
            echo "Total: $passed passed, $failed failed"
        elif [ "$kind" = requirements ]; then
            requirements_problem "$log"
        fi
        ;;
    scenario | client)
        total=$(grep -E '^Passed: [0-9]+/[0-9]+, [0-9]+ failed' "$log" || true)
        if [ -z "$total" ] || [ "$(wc -l <<<"$total")" != 1 ]; then
            echo "no single 'Passed: N/M, F failed' line (skipped?)"
            return
        fi
        passed=$(sed -n 's/^Passed: \([0-9]*\)\/.*/\1/p' <<<"$total")
        scenarios=$(sed -n 's/^Passed: [0-9]*\/\([0-9]*\),.*/\1/p' <<<"$total")
        failed=$(sed -n 's/^Passed: [0-9]*\/[0-9]*, \([0-9]*\) failed.*/\1/p' <<<"$total")
        if [ "$failed" != 0 ] || [ "$passed" = 0 ] || [ "$passed" != "$scenarios" ]; then
            echo "$total"
        elif [ "$kind" = client ] && ! grep -q 'OVERALL: PASSED$' "$log"; then
            echo "no 'OVERALL: PASSED' line"
        fi
        ;;
    clientreq)
        if ! grep -q '^=== SUITE SUMMARY ===$' "$log"; then
            echo "no '=== SUITE SUMMARY ===' line"
            return
        fi
        summary=$(sed -n '/^=== SUITE SUMMARY ===$/,/^Total: /p' "$log")
        local not_scored scored
        not_scored=$(sed -n '/^Not scored for /,$p' "$log" | sed -n 's/^  [✓✗] \([^ ]*\) (.*)$/\1/p')
        scored=$(grep -E '^[✓✗] [^:]*: [0-9]+ passed, [0-9]+ failed$' <<<"$summary" |
            grep -vF -f <(printf '%s\n' $not_scored | sed 's/.*/ &:/') || true)
        scenarios=$(grep -c . <<<"$scored" || true)
        bad=$(grep -cvE '^✓ .*: [0-9]+ passed, 0 failed$' <<<"$scored" || true)
        if [ -z "$scored" ] || [ "$scenarios" = 0 ]; then
            echo "the summary lists no scored scenario"
        elif [ "$bad" != 0 ]; then
            echo "$bad scored scenario(s) did not pass"
        fi
        ;;
    *) echo "unknown summary kind $kind" ;;
    esac
}

# The scenarios a --requirements run executes beyond those it scores (the
# tasks extension, pending ones) must have run and passed too.
requirements_problem() {
    local line run failing
    line=$(grep -E '^Not scored for [^:]*: [0-9]+ scenario\(s\) run, [0-9]+ failing' "$1" || true)
    run=$(sed -n 's/^Not scored for [^:]*: \([0-9]*\) scenario.*/\1/p' <<<"$line")
    failing=$(sed -n 's/.* run, \([0-9]*\) failing.*/\1/p' <<<"$line")
    if [ -z "$line" ] || [ "$(wc -l <<<"$line")" != 1 ]; then
        echo "no single 'Not scored for ...: N scenario(s) run, F failing' line"
    elif [ "$run" = 0 ] || [ "$failing" != 0 ]; then
        echo "not-scored scenarios: $run run, $failing failing"
    fi
}

# summary_self_test: each doctored log must be judged as expected; prints
# the mismatches and returns non-zero if any.
summary_self_test() {
    local dir mismatches=0 kind expected name problem
    dir=$(mktemp -d)
    local suite_ok='=== Running scenario: a ===

=== SUMMARY ===
✓ server-initialize: 2 passed, 0 failed
✓ tools-list: 1 passed, 0 failed

Total: 3 passed, 0 failed'
    local not_scored='
Not scored for 2026-07-28: 4 scenario(s) run, 0 failing. These do not affect conformance.
  ✓ tasks-get (extension)'
    printf '%s\n' "$suite_ok" >"$dir/suite-ok"
    printf '%s\n' "${suite_ok/2 passed, 0 failed/1 passed, 1 failed}" >"$dir/suite-scenario-failed"
    printf '%s\n' "${suite_ok/✓ tools-list/✗ tools-list}" >"$dir/suite-crossed"
    printf '%s\n' "${suite_ok/Total: 3 passed, 0 failed/Total: 3 passed, 2 failed}" >"$dir/suite-total-failed"
    printf '%s\n' "${suite_ok/Total: 3 passed, 0 failed/}" >"$dir/suite-no-total"
    printf '%s\n' "${suite_ok/=== SUMMARY ===/}" >"$dir/suite-no-summary"
    printf '=== SUMMARY ===\n\nTotal: 0 passed, 0 failed\n' >"$dir/suite-empty"
    printf '%s\n' "$suite_ok" "$not_scored" >"$dir/requirements-ok"
    printf '%s\n' "$suite_ok" "${not_scored/0 failing/1 failing}" >"$dir/requirements-not-scored-failing"
    printf '%s\n' "$suite_ok" "${not_scored/ 4 scenario/ 0 scenario}" >"$dir/requirements-not-scored-none"
    printf '%s\n' "Checks:" "Test Results:" "Passed: 5/5, 0 failed, 1 warnings" >"$dir/scenario-ok"
    printf '%s\n' "Test Results:" "Passed: 4/5, 1 failed, 0 warnings" >"$dir/scenario-failed"
    printf '%s\n' "Test Results:" "Passed: 0/0, 0 failed, 0 warnings" >"$dir/scenario-empty"
    printf '%s\n' "SKIPPED: scenario 'x' is not applicable at spec version 2025-11-25" >"$dir/scenario-skipped"
    printf '%s\n' "Test Results:" "Passed: 3/3, 0 failed, 0 warnings" "" "✅ OVERALL: PASSED" >"$dir/client-ok"
    printf '%s\n' "Test Results:" "Passed: 3/3, 0 failed, 0 warnings" "" "❌ OVERALL: FAILED" >"$dir/client-overall-failed"
    printf '%s\n' "Test Results:" "Passed: 3/3, 0 failed, 0 warnings" >"$dir/client-no-overall"
    local clientreq_ok='=== SUITE SUMMARY ===
✓ auth/metadata-default: 18 passed, 0 failed
✗ auth/dpop: 10 passed, 3 failed

Total: 28 passed, 3 failed, 0 warnings

Not scored for 2026-07-28: 1 scenario(s) run, 1 failing. These do not affect conformance.
  ✗ auth/dpop (extension)'
    printf '%s\n' "$clientreq_ok" >"$dir/clientreq-ok"
    printf '%s\n' "${clientreq_ok/✓ auth\/metadata-default: 18 passed, 0 failed/✗ auth\/metadata-default: 17 passed, 1 failed}" >"$dir/clientreq-scored-failed"
    printf '%s\n' "${clientreq_ok/✓ auth\/metadata-default: 18 passed, 0 failed/}" >"$dir/clientreq-none-scored"
    printf '%s\n' "${clientreq_ok/=== SUITE SUMMARY ===/}" >"$dir/clientreq-no-summary"
    for file in "$dir"/*; do
        name=${file##*/} kind=${name%%-*}
        expected=$([ "${name#*-}" = ok ] && echo pass || echo fail)
        problem=$(summary_problem "$kind" "$file")
        if [ "$expected" = pass ] && [ -n "$problem" ]; then
            echo "summary self-test: $name should pass, got: $problem"
            mismatches=$((mismatches + 1))
        elif [ "$expected" = fail ] && [ -z "$problem" ]; then
            echo "summary self-test: $name should fail, but passed"
            mismatches=$((mismatches + 1))
        fi
    done
    rm -rf "$dir"
    [ "$mismatches" = 0 ]
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    summary_self_test
    echo "conformance summary checks: every doctored summary judged as expected"
fi
