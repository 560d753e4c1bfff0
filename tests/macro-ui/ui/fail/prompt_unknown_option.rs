use mcp_toolkit_runtime::mcp_prompt;

/// Review code.
#[mcp_prompt(titel = "Code review")]
fn review(code: String) -> String {
    format!("Review:\n{code}")
}

fn main() {}
