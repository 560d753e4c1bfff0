use mcp_toolkit_runtime::mcp_resource;

/// Tags cannot be parsed from one template variable.
#[mcp_resource("tags://{tags}")]
fn tagged(tags: Vec<String>) -> String {
    tags.join(",")
}

fn main() {}
