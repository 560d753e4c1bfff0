//! What a handler knows about the request it serves, and how it talks back
//! while it runs (progress, log messages, cancellation).

use crate::protocol::methods::{NOTIFICATION_MESSAGE, NOTIFICATION_PROGRESS};
use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::client_meta::ClientMeta;
use super::inbound::Inbound;
use super::input::InputState;
use super::peer::Peer;
use super::session::Session;
use crate::jsonrpc::{RequestId, notification_frame};
use crate::protocol::{
    LoggingLevel, LoggingMessageNotificationParams, ProgressNotificationParams, ProgressToken,
};
use crate::server::LiveRegistry;
use crate::server::auth::Principal;
use crate::trace::TraceContext;

/// The context of one request, handed to tool, resource and prompt handlers.
#[derive(Clone, Debug)]
pub struct RequestContext {
    pub(crate) request_id: RequestId,
    pub(crate) client: Arc<ClientMeta>,
    pub(crate) cancellation: CancellationToken,
    pub(crate) progress_token: Option<ProgressToken>,
    pub(crate) log_level: Option<LoggingLevel>,
    pub(crate) meta: Option<serde_json::Map<String, Value>>,
    pub(crate) peer: Peer,
    pub(crate) session: Arc<Session>,
    pub(crate) input: Arc<InputState>,
    pub(crate) inbound: Inbound,
    pub(crate) trace: Option<TraceContext>,
    /// The server's registry, when it is live.
    pub(crate) registry: Option<LiveRegistry>,
}

impl RequestContext {
    /// The handle that changes what the server serves, when its registry
    /// is [live](crate::server::ServerBuilder::live_registry): a tool may
    /// add or remove tools (after a login, say).
    pub fn registry(&self) -> Option<&LiveRegistry> {
        self.registry.as_ref()
    }

    /// The id of the request being served.
    pub fn request_id(&self) -> &RequestId {
        &self.request_id
    }

    /// The era, version, identity and capabilities of the client.
    pub fn client(&self) -> &ClientMeta {
        &self.client
    }

    /// Who the request's access token speaks for, on a server protected
    /// with [`HttpConfig::auth`](crate::transport::http::HttpConfig::auth);
    /// `None` over stdio and on an unprotected server.
    pub fn principal(&self) -> Option<&Principal> {
        self.inbound.principal.as_deref()
    }

    /// The HTTP request's headers, without `Authorization` (a server never
    /// passes the client's token on); `None` over stdio.
    #[cfg(feature = "http")]
    pub fn http_headers(&self) -> Option<&hyper::HeaderMap> {
        self.inbound.headers()
    }

    /// The HTTP request's extensions, as the layers around the MCP service
    /// set them (an axum `Extension` or a tower middleware's value);
    /// `None` over stdio.
    #[cfg(feature = "http")]
    pub fn http_extensions(&self) -> Option<&hyper::http::Extensions> {
        self.inbound.extensions()
    }

    /// The value of type `T` an outer layer put in the HTTP request's
    /// extensions, such as application state; `None` over stdio or when no
    /// layer set one.
    #[cfg(feature = "http")]
    pub fn http_extension<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.http_extensions()?.get::<T>()
    }

    /// The distributed trace this request continues, when the client sent
    /// a `traceparent` in `_meta` (see [`crate::trace`]). While the handler
    /// runs it is also [`TraceContext::current`], so the requests its
    /// clients make continue the trace; work the handler spawns elsewhere
    /// can take it along with [`TraceContext::in_scope`].
    pub fn trace(&self) -> Option<&TraceContext> {
        self.trace.as_ref()
    }

    /// The request's `_meta` object, if it had one.
    pub fn meta(&self) -> Option<&serde_json::Map<String, Value>> {
        self.meta.as_ref()
    }

    /// The token fired when the client cancels this request.
    ///
    /// On cancellation the server drops the handler's future, so code after
    /// an `.await` in the handler simply does not run (clean up in `Drop`).
    /// The token is for work the handler hands to other tasks or threads.
    pub fn cancellation_token(&self) -> &CancellationToken {
        &self.cancellation
    }

    /// Whether the client has cancelled this request.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    /// Resolves when the client cancels this request.
    pub async fn cancelled(&self) {
        self.cancellation.cancelled().await
    }

    /// Whether the client asked for progress (sent a `progressToken`).
    pub fn wants_progress(&self) -> bool {
        self.progress_token.is_some()
    }

    /// Sends `notifications/progress` when the client asked for progress;
    /// does nothing otherwise. `progress` should increase with every call.
    ///
    /// In a task the message, if any, becomes the task's `statusMessage`
    /// instead: the tasks extension has no progress notifications.
    pub async fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(task) = self.input.task() {
            if let Some(message) = message {
                task.set_status_message(message);
            }
            return;
        }
        let Some(token) = &self.progress_token else {
            return;
        };
        if self.is_cancelled() {
            return;
        }
        let params = ProgressNotificationParams {
            progress_token: token.clone(),
            progress,
            total,
            message: message.map(str::to_owned),
            meta: None,
        };
        let frame = notification_frame(NOTIFICATION_PROGRESS, Some(&params));
        self.peer.send(frame).await;
    }

    /// Sends a `notifications/message` log entry when the client asked for
    /// messages at `level` or more severe; does nothing otherwise, and
    /// nothing in a task (the tasks extension has no channel for it).
    pub async fn log(&self, level: LoggingLevel, logger: Option<&str>, data: Value) {
        let Some(threshold) = self.log_level else {
            return;
        };
        if self.input.task().is_some() {
            return;
        }
        if level < threshold || self.is_cancelled() {
            return;
        }
        let params = LoggingMessageNotificationParams {
            level,
            logger: logger.map(str::to_owned),
            data,
            meta: None,
        };
        let frame = notification_frame(NOTIFICATION_MESSAGE, Some(&params));
        self.peer.send(frame).await;
    }
}
