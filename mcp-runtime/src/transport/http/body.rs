//! The body of every response the HTTP transport sends: one buffer, or an
//! SSE stream fed by the task that runs the request.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::body::{Body, Bytes, Frame, SizeHint};
use tokio::sync::mpsc;
use tokio_util::sync::DropGuard;

/// A response body: a complete buffer, or a stream of SSE events. Dropping
/// a stream body (the client went away) cancels the request it carries,
/// when that request is cancellable by disconnection.
#[derive(Debug)]
pub struct McpBody {
    kind: Kind,
    _cancel_on_drop: Option<DropGuard>,
}

#[derive(Debug)]
enum Kind {
    Full(Option<Bytes>),
    Stream(mpsc::Receiver<Bytes>),
}

impl McpBody {
    /// A body of exactly these bytes.
    pub(super) fn full(bytes: impl Into<Bytes>) -> Self {
        let bytes = bytes.into();
        McpBody {
            kind: Kind::Full((!bytes.is_empty()).then_some(bytes)),
            _cancel_on_drop: None,
        }
    }

    /// An empty body.
    pub(super) fn empty() -> Self {
        McpBody::full(Bytes::new())
    }

    /// A body that yields chunks as they arrive and ends when every sender
    /// is gone; `cancel_on_drop` fires when the body is dropped.
    pub(super) fn stream(chunks: mpsc::Receiver<Bytes>, cancel_on_drop: Option<DropGuard>) -> Self {
        McpBody {
            kind: Kind::Stream(chunks),
            _cancel_on_drop: cancel_on_drop,
        }
    }
}

impl Body for McpBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match &mut self.kind {
            Kind::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Kind::Stream(chunks) => chunks.poll_recv(cx).map(|c| c.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self.kind, Kind::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full(bytes) => SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64)),
            Kind::Stream(_) => SizeHint::default(),
        }
    }
}
