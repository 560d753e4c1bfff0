use mcp_toolkit_runtime::mcp_server;

struct Calc;

#[mcp_server(name = "calc")]
impl Calc {}

fn main() {}
