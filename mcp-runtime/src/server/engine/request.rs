//! The engine's entry: one decoded request (or notification) in, its
//! encoded answer out. Settles the request's era on its session, has it
//! [classified](super::classify), admitted under its era's rules
//! ([`era`](super::era)) and [dispatched](super::intercept).

use std::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value};
use tokio_util::either::Either;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use super::classify::{Classified, Decoded};
use super::method::method_name;
use super::params::parse;
use super::peer::Peer;
use super::session::Session;
use crate::jsonrpc::{ErrorObject, Notification, Request, RequestId, error_frame};
use crate::protocol::CancelledNotificationParams;
use crate::protocol::methods::{
    NOTIFICATION_CANCELLED, NOTIFICATION_INITIALIZED, NOTIFICATION_ROOTS_LIST_CHANGED,
};
use crate::server::{Inbound, Server};
use crate::trace::{self, META_TRACEPARENT, META_TRACESTATE, TraceContext};

/// Where a request came from and how to reach back to it.
pub(super) struct Channel {
    pub(super) session: Arc<Session>,
    pub(super) peer: Peer,
    pub(super) cancellation: CancellationToken,
    pub(super) inbound: Inbound,
    pub(super) trace: Option<TraceContext>,
}

impl Server {
    /// Serves one request and returns its encoded response frame: settles
    /// its era on `session`, classifies it, and serves it. The era and the
    /// classification are settled before the future is returned;
    /// admission and dispatch run at its first poll, inside the request's
    /// span (see [`handle_classified`](Self::handle_classified)).
    pub(crate) fn handle_request<'a>(
        &'a self,
        session: &Arc<Session>,
        request: Request,
        peer: Peer,
        cancellation: CancellationToken,
        inbound: Inbound,
    ) -> impl Future<Output = Answer> + Send + use<'a> {
        let decoded = Decoded::new(request);
        let refused = match session.era_for(&decoded, &inbound) {
            Ok(era) => match self.classify(decoded, era, &inbound) {
                Ok(request) => {
                    let served =
                        self.handle_classified(session, request, peer, cancellation, inbound);
                    return Either::Right(served);
                }
                Err(rejection) => Answer::error(&rejection.id, &rejection.error),
            },
            Err(error) => Answer::error(&decoded.id, &error),
        };
        Either::Left(std::future::ready(refused))
    }

    /// Serves a classified request (the HTTP transport classifies before
    /// it picks a session). Not an `async fn`: one would hold the request
    /// both as its argument and as a local, and again in the future it
    /// awaits; this returns that future, which holds the request once.
    /// Admission and dispatch (the router's work) run at its first poll,
    /// inside the request's span and trace scope, and after a caller's
    /// check of cancellation.
    pub(crate) fn handle_classified<'a>(
        &'a self,
        session: &Arc<Session>,
        request: Classified,
        peer: Peer,
        cancellation: CancellationToken,
        inbound: Inbound,
    ) -> impl Future<Output = Answer> + Send + use<'a> {
        let trace = request.meta.as_ref().and_then(caller_trace);
        let span = tracing::info_span!(
            "mcp.request",
            method = method_name(&request.method),
            name = target(&request).unwrap_or_default(),
            id = %request.id,
            era = ?request.era,
            trace_id = trace.as_ref().map(TraceContext::trace_id),
            span_id = trace.as_ref().map(TraceContext::span_id),
            parent_span_id = trace.as_ref().and_then(TraceContext::parent_span_id),
        );
        #[cfg(feature = "opentelemetry")]
        trace::otel::set_parent(&span, trace.as_ref());
        let channel = Channel {
            session: session.clone(),
            peer,
            cancellation,
            inbound,
            trace: trace.clone(),
        };
        trace::scoped(trace, async move {
            let id = request.id.clone();
            // The admitted request is moved into the router's box before
            // the await, so this future does not keep room for it.
            let pending = match self.admit(request, channel) {
                Ok(request) => self.dispatch(request),
                Err(error) => return Answer::error(&id, &error),
            };
            match pending.await {
                Ok(frame) => Answer { frame, error: None },
                Err(error) => Answer::error(&id, &error),
            }
        })
        .instrument(span)
    }

    /// Handles a client notification. `notifications/cancelled` is handled
    /// by the session; the rest need no action.
    pub(crate) fn handle_notification(&self, session: &Session, notification: Notification) {
        match notification.method.as_str() {
            NOTIFICATION_CANCELLED => {
                match parse::<CancelledNotificationParams>(notification.params) {
                    Ok(CancelledNotificationParams {
                        request_id: Some(id),
                        ..
                    }) => match <RequestId as serde::Deserialize>::deserialize(&id) {
                        Ok(id) => session.cancel(&id),
                        Err(_) => tracing::debug!("cancellation of a malformed id ignored"),
                    },
                    _ => tracing::debug!("malformed notifications/cancelled ignored"),
                }
            }
            NOTIFICATION_INITIALIZED | NOTIFICATION_ROOTS_LIST_CHANGED => {}
            other => tracing::debug!(method = other, "notification ignored"),
        }
    }
}

/// The response to one request: its frame and, for an error response, the
/// error code (from which the HTTP transport picks a status without reading
/// the frame again).
pub(crate) struct Answer {
    /// The serialized JSON-RPC response.
    pub(crate) frame: Vec<u8>,
    /// The code of an error response; `None` for a result.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) error: Option<i64>,
}

impl Answer {
    fn error(id: &RequestId, error: &ErrorObject) -> Self {
        Answer {
            frame: error_frame(Some(id), error),
            error: Some(error.code),
        }
    }
}

/// The trace the caller's `traceparent` continues, if it sent a valid one.
fn caller_trace(meta: &Map<String, Value>) -> Option<TraceContext> {
    let parent = meta.get(META_TRACEPARENT)?.as_str()?;
    let state = meta.get(META_TRACESTATE).and_then(Value::as_str);
    TraceContext::parse(parent, state)
}

/// What a request targets (tool, prompt, resource URI, task), for its
/// span.
fn target(request: &Classified) -> Option<&str> {
    let method = request.method.as_ref().ok()?;
    method.target_in(request.params.as_ref()?)
}
