#!/usr/bin/env bash
# Compile cost of a generated client for many tools: `cargo check` of a
# crate that includes the client mcp-codegen writes for TOOLS tools
# (default 2000) cycled from the snapshot corpus (mcp-codegen's
# bench_generate example, see bench/README.md).
#
# Work goes to bench/codegen-check/work/ (git-ignored): the crate, its own
# target dir, results.md. Dependencies are checked first, so each figure is
# the client crate alone: wall seconds and the largest process's peak RSS
# (GNU time's "Maximum resident set size", i.e. rustc's), RUNS times each
# (default 1). Knobs: TOOLS, RUNS.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$here/work"
tools="${TOOLS:-2000}"
runs="${RUNS:-1}"
[[ "$runs" =~ ^[0-9]+$ && "$runs" -ge 1 && "$runs" -le 10 ]] || { echo "RUNS must be 1..10" >&2; exit 1; }
[[ "$tools" =~ ^[0-9]+$ && "$tools" -ge 1 && "$tools" -le 5000 ]] || { echo "TOOLS must be 1..5000" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "needs GNU time at /usr/bin/time" >&2; exit 1; }

rm -rf "$work/client"
mkdir -p "$work/client/src"
(cd "$root" && cargo run --quiet --release -p mcp-toolkit-codegen --example bench_generate -- \
    "$tools" 1 "$work/client/src/generated.rs")
lines=$(wc -l < "$work/client/src/generated.rs")

cat > "$work/client/Cargo.toml" <<TOML
[package]
name = "bench-generated-client"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
# What generated clients call (the runtime has no default features).
mcp-toolkit-runtime = { path = "$root/mcp-runtime", features = ["client"] }
TOML
echo 'include!("generated.rs");' > "$work/client/src/lib.rs"

export CARGO_TARGET_DIR="$work/target"
# Every run compiles the client from scratch (incremental reuse would hide it).
export CARGO_INCREMENTAL=0
cd "$work/client"
# Dependencies first: check an empty crate, then put the client back.
mv src/lib.rs src/lib.rs.keep && : > src/lib.rs
cargo check --quiet
mv src/lib.rs.keep src/lib.rs

results="$work/results.md"
{
    echo "$tools tools, $lines lines generated, $(date -u +%FT%TZ), mcp-toolkit-runtime at $(git -C "$root" rev-parse --short HEAD)"
    echo
    echo "| run | wall s | peak RSS MB |"
    echo "| --- | ---: | ---: |"
} > "$results"
for i in $(seq "$runs"); do
    touch src/lib.rs
    /usr/bin/time -v -o "$work/time.txt" cargo check --quiet
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    secs=$(python3 -c "import sys; p=[float(x) for x in sys.argv[1].split(':')]; print(f'{sum(v*60**i for i,v in enumerate(reversed(p))):.1f}')" "$wall")
    echo "| $i | $secs | $((rss / 1024)) |" >> "$results"
done
cat "$results"
