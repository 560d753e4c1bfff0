use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool]
fn greet(name: String, #[mcp(rename = "name")] nickname: String) -> String {
    format!("{name} {nickname}")
}

fn main() {}
