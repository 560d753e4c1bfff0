use mcp_toolkit_runtime::mcp_prompt;

/// Review code.
#[mcp_prompt]
fn review(code: &str) -> String {
    format!("Review:\n{code}")
}

fn main() {}
