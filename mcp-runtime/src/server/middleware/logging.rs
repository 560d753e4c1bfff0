//! [`RequestLog`]: one `tracing` event per request.

use std::time::Instant;

use super::{McpRequest, McpResponse, Middleware, Next};
use crate::server::BoxFuture;

/// Logs every request when it ends, at `INFO` under the target
/// `mcp_toolkit_runtime::request`: method, name, id, era, duration in
/// milliseconds, and the error code of a failed one. Over stdio the logs go
/// wherever the application's subscriber writes (stderr, never stdout).
#[derive(Debug, Clone, Copy, Default)]
pub struct RequestLog;

impl RequestLog {
    /// The request log.
    pub fn new() -> Self {
        RequestLog
    }
}

impl Middleware for RequestLog {
    fn call(&self, request: McpRequest, next: Next) -> BoxFuture<McpResponse> {
        Box::pin(async move {
            let started = Instant::now();
            let method = request.method().to_owned();
            let name = request.name().map(str::to_owned);
            let id = request.id().clone();
            let era = request.era();
            let response = next.run(request).await;
            let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
            match response.error_object() {
                Some(error) => tracing::info!(
                    target: "mcp_toolkit_runtime::request",
                    %method, name, %id, ?era, elapsed_ms, error = error.code,
                    "request failed"
                ),
                None => tracing::info!(
                    target: "mcp_toolkit_runtime::request",
                    %method, name, %id, ?era, elapsed_ms,
                    "request served"
                ),
            }
            response
        })
    }
}
