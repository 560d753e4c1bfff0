use mcp_toolkit_runtime::mcp_resource;

/// A note in a folder; `folder` has no parameter.
#[mcp_resource("notes://{folder}/{title}")]
fn note(title: String) -> String {
    title
}

fn main() {}
