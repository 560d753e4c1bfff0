use mcp_toolkit_runtime::mcp_resource;

struct Stats {
    notes: u32,
}

/// Statistics, returned as a plain struct.
#[mcp_resource("stats://notes")]
fn stats() -> Stats {
    Stats { notes: 3 }
}

fn main() {
    let _ = stats().notes;
}
