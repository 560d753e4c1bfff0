use mcp_toolkit_runtime::mcp_resource;

/// The README, but where?
#[mcp_resource(mime_type = "text/markdown")]
fn readme() -> &'static str {
    "# Hello"
}

fn main() {}
