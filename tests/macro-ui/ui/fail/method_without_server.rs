use mcp_toolkit_runtime::mcp_tool;

struct Counter;

impl Counter {
    #[mcp_tool]
    fn get(&self) -> i64 {
        0
    }
}

fn main() {}
