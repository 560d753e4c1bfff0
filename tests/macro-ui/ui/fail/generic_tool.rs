use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool]
fn identity<T: serde::de::DeserializeOwned>(value: T) -> String {
    let _ = value;
    String::new()
}

fn main() {}
