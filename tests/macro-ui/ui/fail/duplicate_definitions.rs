use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[mcp_tool(name = "add")]
fn plus(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let _ = mcp_toolkit_runtime::definitions![add, plus];
}
