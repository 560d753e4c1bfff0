use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool(name = "bad name", titel = "x")]
fn broken(a: i64, #[mcp(rename = "a")] b: i64) -> i64 {
    a + b
}

fn main() {
    // The function is still emitted, so this call does not add an error.
    let _ = broken(1, 2);
}
