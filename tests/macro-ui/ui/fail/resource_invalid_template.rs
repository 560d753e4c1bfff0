use mcp_toolkit_runtime::mcp_resource;

/// A note; the template misses its closing brace.
#[mcp_resource("notes://{title")]
fn note(title: String) -> String {
    title
}

fn main() {}
