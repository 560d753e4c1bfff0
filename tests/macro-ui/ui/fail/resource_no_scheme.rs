use mcp_toolkit_runtime::mcp_resource;

/// The README, at a path instead of a URI.
#[mcp_resource("README.md")]
fn readme() -> &'static str {
    "# Hello"
}

fn main() {}
