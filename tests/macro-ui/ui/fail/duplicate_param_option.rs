use mcp_toolkit_runtime::{mcp_resource, mcp_tool};

// `#[mcp(rename)]` and `#[serde(rename)]` name the same thing.
#[mcp_tool]
fn greet(#[mcp(rename = "who")] #[serde(rename = "whom")] name: String) -> String {
    name
}

#[mcp_resource("notes://{title}", uri = "notes://{id}")]
fn note(title: String) -> String {
    title
}

fn main() {
    let _ = greet(String::new());
    let _ = note(String::new());
}
