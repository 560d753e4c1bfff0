use mcp_toolkit_runtime::mcp_resource;

/// A note; headers mirror tool arguments only.
#[mcp_resource("notes://{title}")]
fn note(#[mcp(header = "Title")] title: String) -> String {
    title
}

fn main() {}
