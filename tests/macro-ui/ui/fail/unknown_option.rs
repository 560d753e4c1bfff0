use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool(readonly)]
fn look() -> String {
    String::new()
}

fn main() {}
