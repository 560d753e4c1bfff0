use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool]
fn greet(#[mcp(renam = "who")] name: String) -> String {
    name
}

fn main() {}
