use mcp_toolkit_runtime::mcp_resource;
use mcp_toolkit_runtime::protocol::Completion;
use mcp_toolkit_runtime::server::CompletionRequest;

fn complete(_request: CompletionRequest) -> Completion {
    Completion::default()
}

/// The readme.
#[mcp_resource("docs://readme", complete = complete)]
fn readme() -> &'static str {
    "Read me"
}

fn main() {}
