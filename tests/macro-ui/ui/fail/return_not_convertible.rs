use mcp_toolkit_runtime::mcp_tool;

struct Report {
    lines: usize,
}

#[mcp_tool]
fn report() -> Report {
    Report { lines: 0 }
}

fn main() {}
