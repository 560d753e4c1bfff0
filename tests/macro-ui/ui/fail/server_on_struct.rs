use mcp_toolkit_runtime::mcp_server;

#[mcp_server]
struct Calc;

fn main() {}
