use mcp_toolkit_runtime::mcp_prompt;

/// A prompt returning a number.
#[mcp_prompt]
fn count(text: String) -> usize {
    text.len()
}

fn main() {}
