//! One request, one HTTP response: runs the request in its own task and
//! answers with `application/json`, or with `text/event-stream` as soon as
//! the handler sends a notification (progress, log) before its result.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper::body::Bytes;
use hyper::{Response, StatusCode, header};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::{CancellationToken, DropGuard};

use super::body::McpBody;
use super::media::Accepts;
use super::{response, sse};
use crate::jsonrpc::{RequestId, error_frame};
use crate::server::{
    Answer, BoxFuture, Classified, Inbound, Outbox, Peer, Server, Session, panicked, poll_catching,
};

/// SSE events waiting for a slow client before the request is slowed down.
const STREAM_QUEUE: usize = 16;

/// How the request was made, which decides statuses and cancellation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// 2026-07-28: closing the response cancels the request, and error
    /// responses carry the HTTP status the spec names.
    Modern,
    /// 2025-11-25 and earlier: a disconnection is not a cancellation
    /// (`notifications/cancelled` is), and errors travel with 200.
    Legacy,
}

/// Serves `request` on `session`; `cancellation` fires to stop it.
pub(super) async fn run(
    server: Server,
    session: Arc<Session>,
    request: Classified,
    accepts: Accepts,
    cancellation: CancellationToken,
    mode: Mode,
    inbound: Inbound,
) -> Response<McpBody> {
    let guard = (mode == Mode::Modern).then(|| cancellation.clone().drop_guard());
    // A client that accepts no event stream gets the result alone: what
    // the handler sends before it is dropped, and it cannot be asked.
    let outbox = Arc::new(Outbox::default());
    let peer = match accepts.sse {
        true => Peer::outbox(outbox.clone()),
        false => Peer::discarding(),
    };
    // However the exchange ends (answered, streaming, or dropped with
    // its connection), frames sent afterwards go nowhere instead of
    // filling a channel nobody reads; a stream reads on until its end.
    let _closing = Closing(outbox.clone());
    let mut handler = start_handler(server, session, request, peer, cancellation, mode, inbound);
    let outcome = tokio::select! {
        biased;
        () = outbox.opened(), if accepts.sse => {
            let frames = outbox.take().expect("an opened outbox has its receiver");
            return stream(frames, handler, guard);
        }
        joined = &mut handler => joined,
    };
    // Frames sent in the same poll that finished an inline handler.
    if let Some(frames) = outbox.take() {
        return stream(frames, std::future::ready(outcome), guard);
    }
    let Some(Answer { frame, error }) = outcome else {
        // Cancelled: no message may follow, so the response carries none.
        return response::empty(StatusCode::ACCEPTED);
    };
    if !accepts.json {
        let (chunks, body) = mpsc::channel(1);
        let _ = chunks.try_send(sse::event(&frame));
        return event_stream(McpBody::stream(body, None));
    }
    let status = match mode {
        Mode::Modern => response::modern_status(error),
        Mode::Legacy => StatusCode::OK,
    };
    response::json(status, frame)
}

/// Closes an exchange's [`Outbox`] when the exchange ends.
struct Closing(Arc<Outbox>);

impl Drop for Closing {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Starts serving the request. A 2026-07-28 request runs inside the
/// connection's task, since closing its response cancels it anyway and one
/// thread hand-off less is most of a call's cost when few are in flight; a
/// legacy request gets a task of its own, because a disconnection must not
/// stop it. Either way a panic that escapes dispatch fails only this request.
fn start_handler(
    server: Server,
    session: Arc<Session>,
    request: Classified,
    peer: Peer,
    cancellation: CancellationToken,
    mode: Mode,
    inbound: Inbound,
) -> Handler {
    let id = request.id.clone();
    let work = async move {
        // `Shared::request` registers a legacy request on its session
        // (`Session::begin`, for `notifications/cancelled`) before it
        // comes here; a 2026-07-28 one has a session of its own.
        let registered = (mode == Mode::Legacy).then(|| request.id.clone());
        let answer = tokio::select! {
            biased;
            () = cancellation.cancelled() => None,
            answer = server.handle_classified(&session, request, peer, cancellation.clone(), inbound) => Some(answer),
        };
        if let Some(id) = registered {
            session.finish(&id);
        }
        answer
    };
    let run = match mode {
        Mode::Modern => Run::Inline(Box::pin(work)),
        // Boxed, as over stdio: Tokio moves the box, not the request's
        // several-KB state machine.
        Mode::Legacy => Run::Spawned(tokio::spawn(Box::pin(work))),
    };
    Handler { id, run }
}

/// A request being served; resolves to its response, `None` when it was
/// cancelled.
struct Handler {
    id: RequestId,
    run: Run,
}

/// Where a [`Handler`] runs.
enum Run {
    /// Polled by whoever polls the handler, a panic caught at each poll.
    Inline(BoxFuture<Option<Answer>>),
    /// In a task of its own.
    Spawned(JoinHandle<Option<Answer>>),
}

impl Future for Handler {
    type Output = Option<Answer>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let failure = match &mut self.run {
            Run::Inline(work) => match poll_catching(work.as_mut(), cx) {
                Poll::Ready(Ok(answer)) => return Poll::Ready(answer),
                Poll::Ready(Err(panic)) => panic,
                Poll::Pending => return Poll::Pending,
            },
            Run::Spawned(task) => match Pin::new(task).poll(cx) {
                Poll::Ready(Ok(answer)) => return Poll::Ready(answer),
                // A panic, or the runtime shutting down (an answer then
                // reaches no one).
                Poll::Ready(Err(error)) => error.to_string(),
                Poll::Pending => return Poll::Pending,
            },
        };
        let error = panicked(failure);
        Poll::Ready(Some(Answer {
            frame: error_frame(Some(&self.id), &error),
            error: Some(error.code),
        }))
    }
}

/// Switches to SSE: every notification the handler sends, from the first
/// on, then the response, then the end of the stream.
fn stream(
    mut frames: mpsc::Receiver<Vec<u8>>,
    handler: impl Future<Output = Option<Answer>> + Send + 'static,
    guard: Option<DropGuard>,
) -> Response<McpBody> {
    let (chunks, body) = mpsc::channel::<Bytes>(STREAM_QUEUE);
    tokio::spawn(async move {
        let mut handler = std::pin::pin!(handler);
        loop {
            let event = tokio::select! {
                biased;
                Some(frame) = frames.recv() => sse::event(&frame),
                outcome = &mut handler => {
                    // Notifications sent before the result are queued already.
                    while let Ok(frame) = frames.try_recv() {
                        if chunks.send(sse::event(&frame)).await.is_err() {
                            return;
                        }
                    }
                    if let Some(answer) = outcome {
                        let _ = chunks.send(sse::event(&answer.frame)).await;
                    }
                    return;
                }
                () = chunks.closed() => return,
            };
            if chunks.send(event).await.is_err() {
                return;
            }
        }
    });
    event_stream(McpBody::stream(body, guard))
}

pub(super) fn event_stream(body: McpBody) -> Response<McpBody> {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    // Tells nginx and friends not to buffer the stream.
    headers.insert("x-accel-buffering", header::HeaderValue::from_static("no"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic that escapes dispatch in a handler polled inline fails its
    /// own request with -32603 for its id, and the poll returns.
    #[tokio::test]
    async fn a_panic_in_an_inline_handler_is_an_internal_error_for_its_id() {
        let work: BoxFuture<Option<Answer>> = Box::pin(async { panic!("boom") });
        let handler = Handler {
            id: RequestId::Int(7),
            run: Run::Inline(work),
        };
        let answer = handler.await.expect("an answer, not a cancellation");
        assert_eq!(answer.error, Some(-32603));
        let frame: serde_json::Value = serde_json::from_slice(&answer.frame).unwrap();
        assert_eq!(frame["id"], 7);
        assert_eq!(frame["error"]["code"], -32603);
    }
}
