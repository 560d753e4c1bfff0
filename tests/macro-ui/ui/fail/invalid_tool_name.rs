use mcp_toolkit_runtime::mcp_tool;

/// Tools are named by the spec's rules.
#[mcp_tool(name = "add numbers")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
