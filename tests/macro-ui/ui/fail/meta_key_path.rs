use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool(meta(a::b = 1))]
fn tagged() {}

fn main() {}
