use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool]
struct NotAFunction;

fn main() {}
