use mcp_toolkit_runtime::mcp_prompt;
use mcp_toolkit_runtime::server::CompletionRequest;

/// Returns bare strings; a completion function returns `Completion`.
fn complete_language(request: CompletionRequest) -> Vec<String> {
    vec![request.value]
}

/// Review code.
#[mcp_prompt(complete = complete_language)]
fn review(language: String) -> String {
    format!("Review this {language} code")
}

fn main() {}
