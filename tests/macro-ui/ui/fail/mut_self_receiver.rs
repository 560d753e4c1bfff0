use mcp_toolkit_runtime::{mcp_server, mcp_tool};

struct Counter {
    n: i64,
}

#[mcp_server]
impl Counter {
    #[mcp_tool]
    fn bump(&mut self) -> i64 {
        self.n += 1;
        self.n
    }
}

fn main() {}
