//! A client connection over a pair of byte streams carrying one JSON-RPC
//! message per line (a child process's stdio, or an in-memory pipe).
//!
//! Many requests share the connection: a reader task routes each response
//! to the caller waiting for its id and each progress notification to the
//! listener registered for its token.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, BufWriter,
};
use tokio::sync::{Notify, mpsc, oneshot};

use super::notices::Notices;
use super::{ClientError, InputHandler};
use crate::jsonrpc::{ErrorObject, Incoming, RequestId, decode, notification_frame};
use crate::protocol::methods::{NOTIFICATION_CANCELLED, NOTIFICATION_PROGRESS};
use crate::protocol::{ProgressNotificationParams, ProgressToken};
use crate::sync::lock;

type Outcome = Result<Value, ErrorObject>;

/// Callers waiting for responses and progress, keyed by id and token.
#[derive(Default)]
struct Waiters {
    responses: HashMap<RequestId, oneshot::Sender<Outcome>>,
    progress: HashMap<ProgressToken, mpsc::UnboundedSender<ProgressNotificationParams>>,
    closed: bool,
    /// Whether the server ever wrote a usable message.
    heard: bool,
    /// The last thing the server wrote that was no usable message, described
    /// with a sample, for the error of a request it never answered.
    oddity: Option<String>,
    /// Why the server's output ended, once it has.
    ended: Option<String>,
}

/// What the connection knows about a server that does not answer.
pub(crate) struct Diagnosis {
    /// What was wrong with its output, if anything.
    pub(crate) oddity: Option<String>,
    /// Why its output ended, if it has.
    pub(crate) ended: Option<String>,
    /// Whether it ever wrote a usable message.
    pub(crate) heard: bool,
}

/// The queue of frames to the server, counting what was queued and what
/// was written, so that a caller can wait until the queue is drained.
#[derive(Clone)]
struct Outbox {
    frames: mpsc::Sender<Vec<u8>>,
    counts: Arc<Counts>,
}

#[derive(Default)]
struct Counts {
    queued: AtomicU64,
    written: AtomicU64,
    drained: Notify,
}

impl Outbox {
    async fn send(&self, frame: Vec<u8>) -> Result<(), ClientError> {
        self.counts.queued.fetch_add(1, Ordering::SeqCst);
        self.frames.send(frame).await.map_err(|_| {
            self.counts.queued.fetch_sub(1, Ordering::SeqCst);
            ClientError::Closed
        })
    }

    fn try_send(&self, frame: Vec<u8>) {
        self.counts.queued.fetch_add(1, Ordering::SeqCst);
        if self.frames.try_send(frame).is_err() {
            self.counts.queued.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The shared half of a line-based connection.
pub(crate) struct LineConnection {
    frames: Outbox,
    waiters: Arc<Mutex<Waiters>>,
}

impl LineConnection {
    /// Starts the reader and writer tasks over `input` (from the server) and
    /// `output` (to the server).
    pub(crate) fn start<R, W>(
        input: R,
        output: W,
        answers: Option<Arc<dyn InputHandler>>,
        notices: Notices,
    ) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (frames, queue) = mpsc::channel(256);
        let frames = Outbox {
            frames,
            counts: Arc::default(),
        };
        let waiters = Arc::new(Mutex::new(Waiters::default()));
        tokio::spawn(write_lines(output, queue, frames.counts.clone()));
        tokio::spawn(read_lines(
            input,
            waiters.clone(),
            frames.clone(),
            answers,
            notices,
        ));
        LineConnection { frames, waiters }
    }

    /// Sends a request frame and waits for the response with `id`.
    /// Dropping the returned future forgets the request.
    pub(crate) async fn request(
        &self,
        id: RequestId,
        frame: Vec<u8>,
        progress: Option<(
            ProgressToken,
            mpsc::UnboundedSender<ProgressNotificationParams>,
        )>,
    ) -> Result<Outcome, ClientError> {
        let (tx, rx) = oneshot::channel();
        {
            let mut waiters = lock(&self.waiters);
            if waiters.closed {
                return Err(ClientError::Closed);
            }
            waiters.responses.insert(id.clone(), tx);
            if let Some((token, listener)) = &progress {
                waiters.progress.insert(token.clone(), listener.clone());
            }
        }
        let mut guard = Forget {
            waiters: &self.waiters,
            frames: &self.frames,
            id: &id,
            token: progress.as_ref().map(|(t, _)| t),
            answered: false,
        };
        self.send(frame).await?;
        let outcome = rx.await.map_err(|_| ClientError::Closed);
        guard.answered = true;
        outcome
    }

    /// What is known about the server's output so far.
    pub(crate) fn diagnosis(&self) -> Diagnosis {
        let waiters = lock(&self.waiters);
        Diagnosis {
            oddity: waiters.oddity.clone(),
            ended: waiters.ended.clone(),
            heard: waiters.heard,
        }
    }

    /// Sends a frame that expects no answer (a notification).
    pub(crate) async fn send(&self, frame: Vec<u8>) -> Result<(), ClientError> {
        self.frames.send(frame).await
    }

    /// Closes the output once what was queued before is written: a stdio
    /// server sees the end of its input, the polite way to stop it.
    pub(crate) async fn close_output(&self) {
        // The empty frame is the writer's signal to stop.
        let _ = self.frames.frames.send(Vec::new()).await;
    }

    /// Waits until every frame queued so far is written (a cancellation
    /// queued by a dropped request included), or the writer stopped.
    pub(crate) async fn drained(&self) {
        let counts = &self.frames.counts;
        loop {
            let notified = counts.drained.notified();
            if counts.written.load(Ordering::SeqCst) >= counts.queued.load(Ordering::SeqCst)
                || self.frames.frames.is_closed()
            {
                return;
            }
            notified.await;
        }
    }
}

/// Removes a request's waiters when its future completes or is dropped; a
/// request dropped before its answer is cancelled at the server.
struct Forget<'a> {
    waiters: &'a Mutex<Waiters>,
    frames: &'a Outbox,
    id: &'a RequestId,
    token: Option<&'a ProgressToken>,
    answered: bool,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        let mut waiters = lock(self.waiters);
        let pending = waiters.responses.remove(self.id).is_some();
        if let Some(token) = self.token {
            waiters.progress.remove(token);
        }
        if pending && !self.answered && !waiters.closed {
            let params =
                serde_json::json!({ "requestId": self.id, "reason": "the caller gave up" });
            // Best effort: a full queue means the server is far behind anyway.
            self.frames
                .try_send(notification_frame(NOTIFICATION_CANCELLED, Some(&params)));
        }
    }
}

async fn write_lines<W: AsyncWrite + Unpin>(
    output: W,
    mut queue: mpsc::Receiver<Vec<u8>>,
    counts: Arc<Counts>,
) {
    let mut out = BufWriter::new(output);
    while let Some(frame) = queue.recv().await {
        let mut batch = Some(frame);
        let mut written = 0;
        let mut failed = false;
        while let Some(frame) = batch.take() {
            if frame.is_empty() {
                // close_output: stop here; dropping `out` closes the stream.
                failed = true;
                break;
            }
            if out.write_all(&frame).await.is_err() || out.write_all(b"\n").await.is_err() {
                failed = true;
                break;
            }
            written += 1;
            batch = queue.try_recv().ok();
        }
        failed |= out.flush().await.is_err();
        counts.written.fetch_add(written, Ordering::SeqCst);
        counts.drained.notify_waiters();
        if failed {
            break;
        }
    }
    // Nothing more will be written: nobody waits for it.
    queue.close();
    counts.written.store(u64::MAX, Ordering::SeqCst);
    counts.drained.notify_waiters();
}

/// Why the output ended when the server closed it (rather than the client
/// giving up on it).
pub(crate) const OUTPUT_CLOSED: &str = "it closed its output";

/// The longest message accepted from a server.
const MAX_LINE_BYTES: u64 = 64 * 1024 * 1024;

async fn read_lines<R: AsyncRead + Unpin>(
    input: R,
    waiters: Arc<Mutex<Waiters>>,
    frames: Outbox,
    answers: Option<Arc<dyn InputHandler>>,
    notices: Notices,
) {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    let ended = loop {
        line.clear();
        // Bytes, not `lines()`: a non-UTF-8 line is one unreadable message
        // (logged below), not the end of the connection; and a server that
        // never sends a newline cannot make us buffer without bound.
        let read = (&mut input)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut line)
            .await;
        match read {
            Ok(0) => break OUTPUT_CLOSED.to_owned(),
            Err(error) => break format!("reading its output failed: {error}"),
            Ok(_) if line.len() as u64 > MAX_LINE_BYTES => {
                tracing::warn!("a message from the server exceeds {MAX_LINE_BYTES} bytes; closing");
                break format!(
                    "it sent a message over the {MAX_LINE_BYTES}-byte limit (more than {} bytes)",
                    line.len()
                );
            }
            Ok(_) => {}
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let decoded = decode(&line);
        if decoded.is_ok() {
            lock(&waiters).heard = true;
        }
        match decoded {
            Ok(Incoming::Response(response)) => {
                let mut waiters = lock(&waiters);
                match waiters.responses.remove(&response.id) {
                    Some(waiter) => {
                        let _ = waiter.send(response.outcome);
                    }
                    None => {
                        waiters.oddity = Some(format!(
                            "it answered an id nobody asked for ({})",
                            response.id
                        ));
                    }
                }
            }
            Ok(Incoming::Notification(notification)) => {
                if notification.method == NOTIFICATION_PROGRESS {
                    let params = notification.params.unwrap_or(Value::Null);
                    if let Ok(progress) =
                        serde_json::from_value::<ProgressNotificationParams>(params)
                        && let Some(listener) =
                            lock(&waiters).progress.get(&progress.progress_token)
                    {
                        let _ = listener.send(progress);
                    }
                } else {
                    notices.publish(notification);
                }
            }
            Ok(Incoming::Request(request)) => {
                // Server-to-client requests of the legacy era, answered in
                // their own task so that responses keep flowing meanwhile.
                let (frames, answers) = (frames.clone(), answers.clone());
                tokio::spawn(async move {
                    let frame = super::server_requests::answer(request, answers.as_deref()).await;
                    let _ = frames.send(frame).await;
                });
            }
            Err(rejected) => {
                tracing::warn!(error = %rejected.error, "unreadable message from the server");
                lock(&waiters).oddity = Some(describe_unreadable(&line, &rejected.error.message));
            }
        }
    };
    // End of stream: every waiting caller learns the connection closed.
    let mut waiters = lock(&waiters);
    waiters.ended = Some(ended);
    waiters.closed = true;
    waiters.responses.clear();
    waiters.progress.clear();
}

/// An unreadable line in words, with a sample of it.
fn describe_unreadable(line: &[u8], why: &str) -> String {
    if why.contains("recursion limit") {
        return format!("its message nests too deeply ({} bytes)", line.len());
    }
    let text = String::from_utf8_lossy(line);
    let sample: String = text.trim_end().chars().take(120).collect();
    let more = if text.trim_end().chars().count() > 120 {
        "..."
    } else {
        ""
    };
    format!("its output is not JSON-RPC ({why}): {sample:?}{more}")
}
