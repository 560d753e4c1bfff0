use mcp_toolkit_runtime::{mcp_prompt, mcp_server};

struct Reviewer;

#[mcp_server]
impl Reviewer {
    /// Review code.
    #[mcp_prompt]
    fn review(&self, code: String) -> String {
        format!("Review:\n{code}")
    }

    /// Review code, strictly.
    #[mcp_prompt(name = "review")]
    fn strict_review(&self, code: String) -> String {
        format!("Review strictly:\n{code}")
    }
}

fn main() {}
