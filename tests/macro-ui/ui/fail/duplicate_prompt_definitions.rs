use mcp_toolkit_runtime::mcp_prompt;

/// Review code.
#[mcp_prompt]
fn review(code: String) -> String {
    format!("Review:\n{code}")
}

/// Review code, strictly.
#[mcp_prompt(name = "review")]
fn strict_review(code: String) -> String {
    format!("Review strictly:\n{code}")
}

fn main() {
    let _ = mcp_toolkit_runtime::definitions![review, strict_review];
}
