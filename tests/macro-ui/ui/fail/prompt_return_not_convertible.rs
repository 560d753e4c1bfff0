use mcp_runtime::mcp_prompt;

/// A prompt returning a number.
#[mcp_prompt]
fn count(text: String) -> usize {
    text.len()
}

fn main() {}
