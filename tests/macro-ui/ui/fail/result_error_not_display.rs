use mcp_toolkit_runtime::mcp_tool;

#[derive(Debug)]
struct Oops;

#[mcp_tool]
fn risky() -> Result<String, Oops> {
    Err(Oops)
}

fn main() {}
