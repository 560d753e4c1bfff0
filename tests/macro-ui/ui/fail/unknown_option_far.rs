use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool(colour = "red")]
fn paint() {}

fn main() {}
