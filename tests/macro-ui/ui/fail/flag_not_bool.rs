use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool(read_only = "yes")]
fn look() {}

fn main() {}
