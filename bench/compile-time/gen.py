"""Writes two crates with the same N tools: `ours` (#[mcp_tool] on free
functions, registered with definitions![...]) and `rmcp` (#[tool] methods
in one #[tool_router] impl, one Parameters<T> struct per tool, as rmcp
requires), in a throwaway Cargo workspace. Usage: gen.py OUT_DIR RUNTIME_PATH N"""

import os
import sys

out, runtime, n = sys.argv[1], sys.argv[2], int(sys.argv[3])


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


write(f"{out}/Cargo.toml", """[workspace]
resolver = "3"
members = ["ours", "rmcp"]

[profile.release]
debug = 1
""")

write(f"{out}/ours/Cargo.toml", f"""[package]
name = "bench-ours"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-toolkit-runtime = {{ path = "{runtime}" }}
""")

write(f"{out}/rmcp/Cargo.toml", """[package]
name = "bench-rmcp"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
rmcp = { version = "=3.11.0", features = ["server", "macros"] }
serde = { version = "1", features = ["derive"] }
schemars = "1"
""")

# The edit the benchmark makes before each incremental build.
EDIT = "pub const EDIT: u64 = 0;\n"

ours = ["//! Generated: N tools with #[mcp_tool].\n", "use mcp_toolkit_runtime::mcp_tool;\n\n", EDIT]
for i in range(n):
    ours.append(f"""
/// Tool {i}: adds two integers and an offset.
///
/// # Arguments
///
/// * `a` - The first addend.
/// * `b` - The second addend.
/// * `note` - A note echoed back.
#[mcp_tool(read_only)]
pub fn tool_{i}(a: i64, b: i64, note: Option<String>) -> String {{
    format!("{{}} {{}}", a + b + {i}, note.unwrap_or_default())
}}
""")
names = ", ".join(f"tool_{i}" for i in range(n))
ours.append(f"""
/// Every tool, for a server.
pub fn definitions() -> mcp_toolkit_runtime::server::Definitions {{
    mcp_toolkit_runtime::definitions![{names}]
}}
""")
write(f"{out}/ours/src/lib.rs", "".join(ours))

rmcp = ["""//! Generated: N tools with rmcp's #[tool] / #[tool_router].
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

""", EDIT]
for i in range(n):
    rmcp.append(f"""
#[derive(Deserialize, JsonSchema)]
pub struct Args{i} {{
    /// The first addend.
    pub a: i64,
    /// The second addend.
    pub b: i64,
    /// A note echoed back.
    pub note: Option<String>,
}}
""")
rmcp.append("""
#[derive(Clone)]
pub struct Bench {
    pub tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Bench {
    pub fn new() -> Self {
        Self { tool_router: Self::tool_router() }
    }
""")
for i in range(n):
    rmcp.append(f"""
    /// Tool {i}: adds two integers and an offset.
    #[tool(annotations(read_only_hint = true))]
    async fn tool_{i}(&self, Parameters(Args{i} {{ a, b, note }}): Parameters<Args{i}>) -> String {{
        format!("{{}} {{}}", a + b + {i}, note.unwrap_or_default())
    }}
""")
rmcp.append("}\n")
write(f"{out}/rmcp/src/lib.rs", "".join(rmcp))
