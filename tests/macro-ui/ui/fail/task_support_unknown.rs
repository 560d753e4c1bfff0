use mcp_toolkit_runtime::mcp_tool;

#[mcp_tool(task_support = "sometimes")]
async fn render() -> String {
    String::new()
}

fn main() {}
