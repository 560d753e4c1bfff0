//! [`Timeout`]: a bound on how long a request may take.

use std::time::Duration;

use super::{McpRequest, McpResponse, Middleware, Next};
use crate::server::BoxFuture;

/// Answers a request that is still running after the given time as failed
/// (a tool result with `isError` for `tools/call`, -32603 otherwise) and
/// cancels it: the handler's future is dropped and its
/// [`cancellation_token`](crate::server::RequestContext::cancellation_token)
/// fires, for work it handed elsewhere. `subscriptions/listen` streams are
/// not bounded.
#[derive(Debug, Clone, Copy)]
pub struct Timeout {
    limit: Duration,
}

impl Timeout {
    /// Bounds every request to `limit`.
    pub fn new(limit: Duration) -> Self {
        Timeout { limit }
    }
}

impl Middleware for Timeout {
    fn call(&self, request: McpRequest, next: Next) -> BoxFuture<McpResponse> {
        let limit = self.limit;
        Box::pin(async move {
            if request.is_stream() {
                return next.run(request).await;
            }
            let timed_out = request.fail(format!(
                "`{}` took longer than {limit:?} and was stopped",
                request.name().unwrap_or(request.method())
            ));
            let cancellation = request.context().cancellation_token().clone();
            match tokio::time::timeout(limit, next.run(request)).await {
                Ok(response) => response,
                Err(_) => {
                    cancellation.cancel();
                    timed_out
                }
            }
        })
    }
}
