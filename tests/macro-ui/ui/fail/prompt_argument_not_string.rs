use mcp_toolkit_runtime::mcp_prompt;

/// Review several files; prompt arguments are strings.
#[mcp_prompt]
fn review(files: Vec<String>) -> String {
    format!("Review {}", files.join(", "))
}

fn main() {}
