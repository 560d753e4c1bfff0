//! Every mistake in an `#[mcp_server]` block is reported at once, in the
//! order they are written: the block's own (an option), one in reading an
//! item's options (given twice) and the rules of items (a tool name, a
//! second tool of the same name). The block is still emitted, so the call
//! in `main` adds no error.

use mcp_toolkit_runtime::{mcp_server, mcp_tool};

struct Calc;

#[mcp_server(name = "calc")]
impl Calc {
    #[mcp_tool(name = "add numbers")]
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }

    #[mcp_tool(read_only, read_only)]
    fn zero(&self) -> i64 {
        0
    }

    #[mcp_tool(name = "add numbers")]
    fn plus(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

fn main() {
    let _ = Calc.add(1, 2);
}
