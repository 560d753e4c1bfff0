//! `echo-server`'s tools written the idiomatic rmcp 3.x way (`#[tool_router]`,
//! `#[tool]`, `#[tool_handler]`), shared by the stdio binary (`rmcp-echo`)
//! and the Streamable HTTP one (`rmcp-echo-http`). Two binaries rather than
//! one with a flag, so that the stdio one does not carry the HTTP stack:
//! peak RSS, which the benchmark compares, grows with the mapped text.
//!
//! `echo(text)` returns the text as a text content block; `add(a, b)` returns
//! `Json<Sum>`, i.e. `structuredContent: {"sum": a + b}` plus its text copy,
//! and advertises the output schema.

use rmcp::{
    Json, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{Implementation, ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// The text to echo.
    text: String,
}

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
}

#[derive(Serialize, JsonSchema)]
struct Sum {
    sum: i64,
}

/// The server: its tool router is all its state.
#[derive(Clone)]
pub struct EchoServer {
    tool_router: ToolRouter<Self>,
}

impl Default for EchoServer {
    /// A server with both tools.
    fn default() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }
}

#[tool_router]
impl EchoServer {
    /// Echo the text back unchanged.
    #[tool]
    async fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }

    /// Add two integers.
    #[tool]
    async fn add(
        &self,
        Parameters(AddArgs { a, b }): Parameters<AddArgs>,
    ) -> Result<Json<Sum>, String> {
        a.checked_add(b)
            .map(|sum| Json(Sum { sum }))
            .ok_or_else(|| "the sum overflows a 64-bit integer".to_owned())
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for EchoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("rmcp-echo", env!("CARGO_PKG_VERSION")))
            .with_instructions("Echoes text and adds integers.")
    }
}
