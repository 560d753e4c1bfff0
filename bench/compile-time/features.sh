#!/usr/bin/env bash
# What each mcp-toolkit-runtime feature adds to a cold release build: the
# minimal stdio server of minimal.sh built with no feature, then with each
# feature alone, interleaved (every feature once per round, ROUNDS rounds).
# Prints, per feature, the median cold build CPU seconds and crates compiled,
# and what they add over no feature, and the stripped binary (which a
# feature's unused code does not grow: the linker drops it).
#
# Knobs: ROUNDS (1..5, default 1), FEATURES (default: every feature that
# brings a dependency or code a server can use).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
rounds="${ROUNDS:-1}"
features="${FEATURES:-http tls jwt client codegen validation skills redis opentelemetry}"
[[ "$rounds" =~ ^[1-5]$ ]] || { echo "ROUNDS must be 1..5" >&2; exit 1; }

results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for round in $(seq "$rounds"); do
    for feature in none $features; do
        extra=""
        [[ "$feature" == none ]] || extra="$feature"
        # minimal.sh's last line is its one row: | ours | 1 | CPU | wall | RSS | bytes | crates |
        row="$(CRATES=ours RUNS=1 OURS_FEATURES="$extra" bash "$here/minimal.sh" | tail -1)"
        echo "round $round, $feature: $row" >&2
        echo "$feature $row" >>"$results"
    done
done

python3 - "$results" <<'PY'
import statistics, sys
rows = {}
order = []
for line in open(sys.argv[1]):
    feature, row = line.split(" ", 1)
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    cpu, size, crates = float(cells[2]), int(cells[5]), int(cells[6])
    if feature not in rows:
        order.append(feature)
        rows[feature] = []
    rows[feature].append((cpu, size, crates))
def median(feature, i):
    return statistics.median(r[i] for r in rows[feature])
base_cpu, base_crates = median("none", 0), median("none", 2)
print("| feature | cold build CPU s | added | crates | added | stripped bytes |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for feature in order:
    cpu, size, crates = (median(feature, i) for i in range(3))
    name = "(none)" if feature == "none" else f"`{feature}`"
    added = "" if feature == "none" else f"{cpu - base_cpu:+.1f}"
    added_crates = "" if feature == "none" else f"{crates - base_crates:+.0f}"
    print(f"| {name} | {cpu:.1f} | {added} | {crates:.0f} | {added_crates} | {size:,.0f} |")
PY
