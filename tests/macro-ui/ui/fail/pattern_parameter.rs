use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool]
fn sum((a, b): (i64, i64)) -> i64 {
    a + b
}

fn main() {}
