//! Between the era's rules and the router: the server's
//! [middleware](crate::server::middleware), when it has any, sees the
//! request first; the router (or `subscriptions/listen`) answers what it
//! passes on.

use std::pin::Pin;

use serde_json::Value;

use super::method::{Method, Requested};
use super::params::{Reply, panicked, parse};
use crate::jsonrpc::RequestId;
use crate::server::middleware::{McpRequest, McpResponse, Next};
use crate::server::{Era, RequestContext, Server, catch_panic};

impl Server {
    /// Serves a request whose era's rules passed.
    pub(super) async fn intercept(
        &self,
        era: Era,
        id: &RequestId,
        method: Requested,
        params: Option<Value>,
        context: RequestContext,
    ) -> Reply {
        let Some(chain) = &self.inner.middleware else {
            return self.answer(era, id, method, params, context).await;
        };
        let request = McpRequest {
            era,
            id: id.clone(),
            method,
            params,
            context,
        };
        let next = Next::start(self.clone(), chain.clone());
        match catch_panic(Box::pin(next.run(request))).await {
            Ok(response) => response.into_reply(),
            Err(message) => Err(panicked(message)),
        }
    }

    /// Where the last layer passes a request on to.
    pub(crate) async fn routed(&self, request: McpRequest) -> McpResponse {
        let McpRequest {
            era,
            id,
            method,
            params,
            context,
        } = request;
        self.answer(era, &id, method, params, context).await.into()
    }

    /// Boxed, and so polled through one vtable: the router's state machine
    /// is the largest function of the crate, and as the body of an `async
    /// fn` the compiler would copy it into every codegen unit that awaits
    /// it (two here, 28 KB each, in every server binary). One allocation per
    /// request is the price.
    fn answer<'a>(
        &'a self,
        era: Era,
        id: &'a RequestId,
        method: Requested,
        params: Option<Value>,
        context: RequestContext,
    ) -> Pin<Box<dyn Future<Output = Reply> + Send + 'a>> {
        Box::pin(async move {
            if era == Era::Modern && method == Ok(Method::Listen) {
                return self.listen(id, parse(params)?, context).await;
            }
            self.route(era, id, method, params, context).await
        })
    }
}
