use mcp_toolkit_runtime::mcp_prompt;

/// Takes the typed prefix, but a completion function takes the whole
/// `CompletionRequest`.
fn complete_language(prefix: String) -> Vec<String> {
    vec![prefix]
}

/// Review code.
#[mcp_prompt(complete = complete_language)]
fn review(language: String) -> String {
    format!("Review this {language} code")
}

fn main() {}
