#!/usr/bin/env bash
# Cold release build of a minimal stdio server: one `echo` tool, served over
# stdio, written with our #[mcp_tool] (mcp-toolkit-runtime with its defaults, none,
# as a server that needs nothing else would depend on it) and with rmcp
# 3.11's #[tool] (features server, macros, transport-io). Each crate gets an
# empty target dir and the dependency sources already downloaded, so the
# figure is compile and link work only. Reports CPU seconds (user + system
# of cargo and everything it ran), wall seconds, peak memory of the largest
# process, and the stripped binary's size.
#
# Knobs: RUNS (1; each run is a full cold build), CRATES ("ours rmcp"),
# OURS_FEATURES (extra mcp-toolkit-runtime features for ours, e.g. "validation").
# Writes bench/compile-time/work-minimal/ (git-ignored).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$here/work-minimal"
runs="${RUNS:-1}"
crates="${CRATES:-ours rmcp}"
features="${OURS_FEATURES:-}"
[[ "$runs" =~ ^[0-9]+$ && "$runs" -ge 1 && "$runs" -le 5 ]] || { echo "RUNS must be 1..5" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work/ours/src" "$work/rmcp/src"
feature_list=""
for f in $features; do feature_list+="\"$f\", "; done

cat > "$work/ours/Cargo.toml" <<TOML
[package]
name = "minimal-ours"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
mcp-toolkit-runtime = { path = "$root/mcp-runtime", features = [${feature_list%, }] }
tokio = { version = "1", features = ["macros", "rt-multi-thread"] }
serde = { version = "1", features = ["derive"] }
TOML
cat > "$work/ours/src/main.rs" <<'RS'
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::Server;

/// Echo the text back unchanged.
///
/// # Arguments
///
/// * `text` - The text to echo.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![echo])
        .build()?;
    server.serve_stdio().await?;
    Ok(())
}
RS

cat > "$work/rmcp/Cargo.toml" <<'TOML'
[package]
name = "minimal-rmcp"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
rmcp = { version = "=3.11.0", features = ["server", "macros", "transport-io"] }
tokio = { version = "1", features = ["macros", "rt-multi-thread", "io-std"] }
serde = { version = "1", features = ["derive"] }
schemars = "1"
TOML
cat > "$work/rmcp/src/main.rs" <<'RS'
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The text to echo.
    text: String,
}

#[derive(Clone)]
struct Echo {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Echo {
    /// Echo the text back unchanged.
    #[tool]
    fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Echo {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let echo = Echo { tool_router: Echo::tool_router() };
    echo.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
RS

echo "| crate | run | CPU s (user + sys) | wall s | peak RSS of one process MB | stripped binary bytes | crates compiled |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for crate in $crates; do
    (cd "$work/$crate" && cargo fetch -q)
done
# Runs are interleaved (run 1 of every crate, then run 2, ...), so that a
# slow spell of the machine hits both crates alike.
for run in $(seq "$runs"); do
    for crate in $crates; do
        rm -rf "$work/$crate/target"
        # getrusage of the children: every rustc and linker cargo ran.
        line=$(cd "$work/$crate" && python3 - <<'PY'
import resource, subprocess, time
start = time.monotonic()
out = subprocess.run(["cargo", "build", "--release", "--offline", "--message-format", "short"],
                     capture_output=True, text=True)
wall = time.monotonic() - start
if out.returncode != 0:
    raise SystemExit(out.stderr[-4000:])
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
compiled = out.stderr.count("Compiling ")
print(f"{usage.ru_utime + usage.ru_stime:.1f} {wall:.1f} {usage.ru_maxrss / 1024:.0f} {compiled}")
PY
)
        read -r cpu wall rss compiled <<<"$line"
        bin="$work/$crate/target/release/minimal-$crate"
        strip -o "$work/$crate.stripped" "$bin"
        size=$(stat -c %s "$work/$crate.stripped")
        echo "| $crate | $run | $cpu | $wall | $rss | $size | $compiled |"
    done
done
