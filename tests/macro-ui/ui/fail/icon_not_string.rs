use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool(icons = [42])]
fn pretty() {}

fn main() {}
