use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool]
fn pair(#[serde(rename = "x")] a: i64, #[serde(rename = "x")] b: i64) -> i64 {
    a + b
}

fn main() {}
