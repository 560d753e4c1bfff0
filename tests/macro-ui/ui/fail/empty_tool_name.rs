use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool(name = "")]
fn nameless() -> String {
    String::new()
}

fn main() {}
