use mcp_toolkit_runtime::mcp_resource;

/// A note; `revision` is not in the template.
#[mcp_resource("notes://{title}")]
fn note(title: String, revision: u32) -> String {
    format!("{title} r{revision}")
}

fn main() {}
