//! Between admission and the router: the server's
//! [middleware](crate::server::middleware), when it has any, sees the
//! request first, unless its method is era plumbing the table marks as
//! bypassing middleware ([`Method::bypasses_middleware`]).

use super::method::Method;
use super::params::{PendingReply, panicked};
use crate::server::middleware::{McpRequest, McpResponse, Next};
use crate::server::{Server, catch_panic};

impl Server {
    /// Serves an admitted request: through the middleware, then the router.
    /// Not an `async fn`: without middleware the router's box is the
    /// request's future, so no state machine holding the request a second
    /// time sits between the request and the router (each would be copied
    /// into the future that awaits it).
    pub(super) fn dispatch(&self, request: McpRequest) -> PendingReply<'_> {
        let bypass = request
            .method
            .as_ref()
            .is_ok_and(|method| Method::bypasses_middleware(*method));
        let chain = match &self.inner.middleware {
            Some(chain) if !bypass => chain.clone(),
            _ => return self.route(request),
        };
        let next = Next::start(self.clone(), chain);
        Box::pin(async move {
            match catch_panic(Box::pin(next.run(request))).await {
                Ok(response) => response.into_reply(),
                Err(message) => Err(panicked(message)),
            }
        })
    }

    /// Where the last layer passes a request on to.
    pub(crate) async fn routed(&self, request: McpRequest) -> McpResponse {
        self.route(request).await.into()
    }
}
