use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool]
fn count(#[serde(default)] n: i64) -> i64 {
    n
}

fn main() {}
