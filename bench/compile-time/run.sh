#!/usr/bin/env bash
# Compile-time cost of 200 annotated tools: our #[mcp_tool] against rmcp
# 3.11's #[tool]/#[tool_router], same tools (see gen.py).
#
# Generates bench/compile-time/work/ (git-ignored; its own Cargo workspace
# and target dir), builds every dependency first, then times, for each crate
# and profile (dev, release):
#   clean: `cargo build` of the tool crate alone after `cargo clean -p`;
#   edit:  `cargo build` after changing one line of the tool crate (an
#          incremental rebuild, what a developer waits for).
# With hyperfine (apt-get install hyperfine) it reports mean ± σ; without,
# a bounded loop of `date`-timed builds (no warm-up run). Knobs: TOOLS (200), RUNS (3),
# PROFILES ("dev release"), CRATES ("ours rmcp").
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$here/work"
tools="${TOOLS:-200}"
runs="${RUNS:-3}"
profiles="${PROFILES:-dev release}"
crates="${CRATES:-ours rmcp}"
[[ "$runs" =~ ^[0-9]+$ && "$runs" -ge 1 && "$runs" -le 20 ]] || { echo "RUNS must be 1..20" >&2; exit 1; }
[[ "$tools" =~ ^[0-9]+$ && "$tools" -ge 1 && "$tools" -le 2000 ]] || { echo "TOOLS must be 1..2000" >&2; exit 1; }

rm -rf "$work"
python3 "$here/gen.py" "$work" "$root/mcp-runtime" "$tools"
export CARGO_TARGET_DIR="$work/target"
cd "$work"

results="$work/results.md"
echo "| crate | profile | what | seconds (mean ± σ, $runs runs) |" > "$results"
echo "| --- | --- | --- | --- |" >> "$results"

flag() { [[ "$1" == release ]] && echo "--release" || true; }

# One measurement: $1 label, $2 prepare command, $3 build command.
measure() {
    local label="$1" prepare="$2" build="$3"
    if command -v hyperfine >/dev/null; then
        hyperfine --warmup 1 --runs "$runs" --prepare "$prepare" --export-json "$work/h.json" "$build" >&2
        python3 - "$work/h.json" "$label" >> "$results" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"| {sys.argv[2]} | {r['mean']:.2f} ± {r['stddev'] or 0:.2f} |")
PY
    else
        local times=()
        for _ in $(seq "$runs"); do
            bash -c "$prepare"
            local start end
            start=$(date +%s.%N)
            bash -c "$build" >&2
            end=$(date +%s.%N)
            times+=("$(echo "$end - $start" | bc)")
        done
        python3 - "$label" "${times[@]}" >> "$results" <<'PY'
import statistics, sys
t = [float(x) for x in sys.argv[2:]]
sd = statistics.stdev(t) if len(t) > 1 else 0.0
print(f"| {sys.argv[1]} | {statistics.mean(t):.2f} ± {sd:.2f} |")
PY
    fi
}

for profile in $profiles; do
    for crate in $crates; do
        pkg="bench-$crate"
        f="$(flag "$profile")"
        echo "== $crate $profile: dependencies" >&2
        cargo build -q $f -p "$pkg"   # dependencies and a first build
        build="cargo build -q $f -p $pkg"
        measure "$crate | $profile | clean" "cargo clean -q $f -p $pkg" "$build"
        edit="sed -i \"s/^pub const EDIT: u64 = .*/pub const EDIT: u64 = \$(date +%s%N);/\" $work/$crate/src/lib.rs"
        measure "$crate | $profile | edit" "$edit" "$build"
    done
done

echo >&2
cat "$results"
