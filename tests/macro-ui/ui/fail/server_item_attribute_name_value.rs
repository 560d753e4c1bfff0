use mcp_toolkit_runtime::{mcp_server, mcp_tool};

struct Calc;

#[mcp_server]
impl Calc {
    #[mcp_tool = "add"]
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

fn main() {}
