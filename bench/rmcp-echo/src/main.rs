//! `echo-server`'s tools written the idiomatic rmcp 3.x way (`#[tool_router]`,
//! `#[tool]`, `#[tool_handler]`), served over stdio.
//!
//! `echo(text)` returns the text as a text content block; `add(a, b)` returns
//! `Json<Sum>`, i.e. `structuredContent: {"sum": a + b}` plus its text copy,
//! and advertises the output schema.
//!
//! Transport: by default `rmcp::transport::stdio()` (the documented one, which
//! runs every read and write on Tokio's blocking pool, like `echo-server`);
//! `--pipes` uses `rmcp::transport::stdio_pipes()`, rmcp's non-blocking Linux
//! FIFO transport (falls back to `stdio()` when stdin/stdout are not pipes).
//!
//! `--http IP:PORT` serves Streamable HTTP at `http://IP:PORT/mcp` instead:
//! rmcp's `StreamableHttpService` nested in an axum `Router` and run by
//! `axum::serve`, as rmcp's docs and tests do, with `TCP_NODELAY` on every
//! accepted connection. By default with rmcp's default configuration
//! (`legacy_session_mode: true`: `initialize` opens a session, answers are
//! SSE streams); with `--stateless` too, `legacy_session_mode: false` and
//! `json_response: true` (no session, plain JSON answers), rmcp's cheapest
//! documented mode. 2026-07-28 requests are stateless in both.

use std::net::SocketAddr;

use axum::serve::ListenerExt;
use rmcp::{
    Json, ServerHandler, ServiceExt,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{Implementation, ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
    transport::{
        StreamableHttpServerConfig, StreamableHttpService,
        streamable_http_server::session::local::LocalSessionManager,
    },
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

#[derive(Clone)]
struct EchoServer {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl EchoServer {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

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

const USAGE: &str = "usage: rmcp-echo [--pipes | --http IP:PORT [--stateless]]";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut pipes, mut http, mut stateless) = (false, None, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--pipes" => pipes = true,
            "--stateless" => stateless = true,
            "--http" => {
                let addr = args.next().ok_or(USAGE)?;
                http = Some(
                    addr.parse::<SocketAddr>()
                        .map_err(|e| format!("--http {addr}: {e}"))?,
                );
            }
            _ => return Err(format!("unknown argument {arg:?}; {USAGE}").into()),
        }
    }
    if let Some(addr) = http {
        return serve_http(addr, stateless).await;
    }
    if stateless {
        return Err(format!("--stateless needs --http; {USAGE}").into());
    }
    let service = if pipes {
        EchoServer::new()
            .serve(rmcp::transport::stdio_pipes())
            .await?
    } else {
        EchoServer::new().serve(rmcp::transport::stdio()).await?
    };
    service.waiting().await?;
    Ok(())
}

/// Serves Streamable HTTP at `http://addr/mcp` until the process is killed.
async fn serve_http(addr: SocketAddr, stateless: bool) -> Result<(), Box<dyn std::error::Error>> {
    let mut config = StreamableHttpServerConfig::default();
    if stateless {
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true);
    }
    // rmcp asks for a factory; cloning one prepared server (rather than
    // building the tool router per session or stateless request, as rmcp's
    // examples do) is the cheaper of the two.
    let prototype = EchoServer::new();
    let service: StreamableHttpService<EchoServer, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(prototype.clone()), Default::default(), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    let listener = listener.tap_io(|tcp| {
        // Without it a response written in pieces (SSE) can wait for the
        // client's delayed ACK.
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router).await?;
    Ok(())
}
