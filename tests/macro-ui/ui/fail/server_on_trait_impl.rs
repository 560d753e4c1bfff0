use mcp_toolkit_runtime::mcp_server;

struct Calc;

#[mcp_server]
impl Default for Calc {
    fn default() -> Self {
        Calc
    }
}

fn main() {}
