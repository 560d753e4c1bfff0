use mcp_runtime::mcp_server;

#[mcp_server]
struct Calc;

fn main() {}
