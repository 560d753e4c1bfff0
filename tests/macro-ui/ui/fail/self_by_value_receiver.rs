use mcp_toolkit_runtime::{mcp_server, mcp_tool};

struct Counter;

#[mcp_server]
impl Counter {
    #[mcp_tool]
    fn take(self) -> i64 {
        0
    }
}

fn main() {}
