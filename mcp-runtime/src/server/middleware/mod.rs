//! Middleware at the MCP level: code that sees every request after it was
//! decoded and its era's rules were checked (era, method, the tool, prompt
//! or resource it names, its parameters, the verified principal) and before
//! it is routed, and that can answer it, reject it or pass it on, and sees
//! the response.
//!
//! Layers run in the order they were added with
//! [`ServerBuilder::middleware`](crate::server::ServerBuilder::middleware):
//! the first added is the outermost. They serve both transports alike.
//!
//! ```
//! use mcp_toolkit_runtime::server::middleware::{McpRequest, McpResponse, Next};
//! use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
//! use mcp_toolkit_runtime::protocol::CallToolResult;
//!
//! let server = Server::builder(mcp_toolkit_runtime::server_info!())
//!     .tool(ToolDef::new("delete_all", |_: ToolCall| async { Ok(CallToolResult::text("gone")) }))
//!     .middleware(|request: McpRequest, next: Next| async move {
//!         if request.tool() == Some("delete_all") {
//!             return request.fail("delete_all is switched off on this server");
//!         }
//!         next.run(request).await
//!     })
//!     .build()
//!     .unwrap();
//! # let _ = server;
//! ```
//!
//! Built in: [`RequestLog`] (one `tracing` event per request, with its
//! duration), [`ConcurrencyLimit`] (per server, per client or per tool) and
//! [`Timeout`].
//!
//! What middleware does not see: the protocol's own housekeeping, answered
//! before it (`initialize`, `ping`, `logging/setLevel`, `server/discover`,
//! `resources/subscribe`/`unsubscribe` and the `tasks/*` methods), and
//! notifications. HTTP-level concerns (TLS, CORS, body limits, an axum or
//! tower layer) belong around the HTTP service instead, which is a tower
//! `Service`; middleware here works on MCP's terms, which tower's request
//! type cannot name.

mod concurrency;
mod logging;
mod request;
mod timeout;

use std::future::Future;
use std::sync::Arc;

pub use concurrency::{ConcurrencyLimit, LimitKey};
pub use logging::RequestLog;
pub use request::{McpRequest, McpResponse};
pub use timeout::Timeout;

use crate::server::{BoxFuture, Server};

/// One layer around the server's request handling.
///
/// Implemented by every `Fn(McpRequest, Next) -> impl Future<Output =
/// McpResponse>` closure (annotate its parameter types), and by the
/// built-in layers of this module.
pub trait Middleware: Send + Sync + 'static {
    /// Serves `request`: answer it directly (see [`McpRequest::reply`] and
    /// [`McpRequest::fail`]), or pass it on with [`Next::run`] and return
    /// (or inspect) what comes back.
    fn call(&self, request: McpRequest, next: Next) -> BoxFuture<McpResponse>;
}

impl<F, Fut> Middleware for F
where
    F: Fn(McpRequest, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = McpResponse> + Send + 'static,
{
    fn call(&self, request: McpRequest, next: Next) -> BoxFuture<McpResponse> {
        Box::pin(self(request, next))
    }
}

/// The layers of a server, outermost first.
pub(crate) type Chain = Arc<[Arc<dyn Middleware>]>;

/// The rest of the chain: the inner layers, then the server's router.
pub struct Next {
    server: Server,
    chain: Chain,
    position: usize,
}

impl Next {
    /// The whole chain of `server`, from its outermost layer.
    pub(crate) fn start(server: Server, chain: Chain) -> Self {
        Next {
            server,
            chain,
            position: 0,
        }
    }

    /// Passes the request on to the next layer, or to the router after the
    /// last one, and returns its response.
    pub async fn run(self, request: McpRequest) -> McpResponse {
        match self.chain.get(self.position) {
            Some(layer) => {
                let layer = layer.clone();
                let next = Next {
                    position: self.position + 1,
                    ..self
                };
                layer.call(request, next).await
            }
            None => self.server.routed(request).await,
        }
    }
}

impl std::fmt::Debug for Next {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Next")
            .field("remaining_layers", &(self.chain.len() - self.position))
            .finish()
    }
}
