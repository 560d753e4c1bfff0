use mcp_toolkit_runtime::mcp_resource;

/// The README.
#[mcp_resource("docs://readme", mime = "text/markdown")]
fn readme() -> &'static str {
    "# Hello"
}

fn main() {}
