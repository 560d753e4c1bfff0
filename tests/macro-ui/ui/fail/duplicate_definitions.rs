use mcp_runtime::mcp_tool;

#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[mcp_tool(name = "add")]
fn plus(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let _ = mcp_runtime::definitions![add, plus];
}
