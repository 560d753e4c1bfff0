//! Context parameters: values a macro-built handler takes from the request
//! itself rather than from the client's arguments. The macros pick a
//! parameter's source by this trait, never by the spelling of its type.

use tokio_util::sync::CancellationToken;

use crate::server::auth::Principal;
use crate::server::{ClientMeta, Era, LiveRegistry, RequestContext};

/// A type a tool, resource or prompt function can take as a parameter to
/// receive part of the request context. Such parameters are left out of the
/// input schema.
///
/// Implemented for [`RequestContext`], [`ClientMeta`], [`Era`],
/// `Option<`[`Principal`]`>`, `Option<`[`LiveRegistry`]`>`, `Option<HeaderMap>` (the HTTP headers),
/// `Option<Extensions>` (the HTTP request's extensions),
/// [`CancellationToken`] and [`Progress`]; implement it for your own types
/// to derive them from the context.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a request context type",
    label = "not taken from the request context",
    note = "context parameters implement `mcp_toolkit_runtime::server::FromRequestContext` (e.g. `RequestContext`, `Progress`, `CancellationToken`, `ClientMeta`)"
)]
pub trait FromRequestContext: Sized {
    /// Extracts the value from the context of the current request.
    fn from_request_context(context: &RequestContext) -> Self;
}

impl FromRequestContext for RequestContext {
    fn from_request_context(context: &RequestContext) -> Self {
        context.clone()
    }
}

impl FromRequestContext for ClientMeta {
    fn from_request_context(context: &RequestContext) -> Self {
        context.client().clone()
    }
}

impl FromRequestContext for Era {
    fn from_request_context(context: &RequestContext) -> Self {
        context.client().era
    }
}

impl FromRequestContext for CancellationToken {
    fn from_request_context(context: &RequestContext) -> Self {
        context.cancellation_token().clone()
    }
}

/// Reports progress of the current request to the client, when the client
/// asked for it (sent a `progressToken`); otherwise reporting does nothing.
#[derive(Clone, Debug)]
pub struct Progress {
    context: RequestContext,
}

impl Progress {
    /// Sends `notifications/progress`; `progress` should grow with every call.
    pub async fn report(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        self.context.report_progress(progress, total, message).await;
    }

    /// Whether the client will receive reports.
    pub fn is_wanted(&self) -> bool {
        self.context.wants_progress()
    }
}

impl FromRequestContext for Progress {
    fn from_request_context(context: &RequestContext) -> Self {
        Progress {
            context: context.clone(),
        }
    }
}

/// The server's registry, when it is [live](crate::server::ServerBuilder::live_registry).
impl FromRequestContext for Option<LiveRegistry> {
    fn from_request_context(context: &RequestContext) -> Self {
        context.registry().cloned()
    }
}

/// The verified principal of a request on a protected HTTP server; `None`
/// over stdio or without authorization.
impl FromRequestContext for Option<Principal> {
    fn from_request_context(context: &RequestContext) -> Self {
        context.principal().cloned()
    }
}

/// The HTTP request's headers (without `Authorization`); `None` over stdio.
#[cfg(feature = "http")]
impl FromRequestContext for Option<hyper::HeaderMap> {
    fn from_request_context(context: &RequestContext) -> Self {
        context.http_headers().cloned()
    }
}

/// The HTTP request's extensions, as outer tower/axum layers set them;
/// `None` over stdio.
#[cfg(feature = "http")]
impl FromRequestContext for Option<hyper::http::Extensions> {
    fn from_request_context(context: &RequestContext) -> Self {
        context.http_extensions().cloned()
    }
}
