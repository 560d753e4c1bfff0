use mcp_runtime::mcp_tool;

struct Counter;

impl Counter {
    #[mcp_tool]
    fn get(&self) -> i64 {
        0
    }
}

fn main() {}
