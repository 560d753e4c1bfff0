use mcp_toolkit_runtime::mcp_resource;

/// Search; a query variable may be absent, so `q` must be an `Option`.
#[mcp_resource("search://notes{?q}")]
fn search(q: String) -> String {
    q
}

fn main() {}
