//! Between admission and the router: the server's
//! [middleware](crate::server::middleware), when it has any, sees the
//! request first, unless its method is era plumbing the table marks as
//! bypassing middleware ([`Method::bypasses_middleware`]).

use super::method::Method;
use super::params::{Reply, panicked};
use crate::server::middleware::{McpRequest, McpResponse, Next};
use crate::server::{Server, catch_panic};

impl Server {
    /// Serves an admitted request: through the middleware, then the router.
    pub(super) async fn dispatch(&self, request: McpRequest) -> Reply {
        let bypass = request
            .method
            .as_ref()
            .is_ok_and(|method| Method::bypasses_middleware(*method));
        let chain = match &self.inner.middleware {
            Some(chain) if !bypass => chain,
            _ => return self.route(request).await,
        };
        let next = Next::start(self.clone(), chain.clone());
        match catch_panic(Box::pin(next.run(request))).await {
            Ok(response) => response.into_reply(),
            Err(message) => Err(panicked(message)),
        }
    }

    /// Where the last layer passes a request on to.
    pub(crate) async fn routed(&self, request: McpRequest) -> McpResponse {
        self.route(request).await.into()
    }
}
