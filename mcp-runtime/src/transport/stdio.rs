//! The stdio transport: one JSON-RPC message per line on stdin, replies on
//! stdout, logs on stderr (through `tracing`).
//!
//! Requests run concurrently: each is first polled by the reading loop and
//! finishes there when it never waits, otherwise it continues in a task of
//! its own. A writer task batches whatever replies are ready into one write
//! and one flush, so pipelined clients are answered without a syscall per
//! message. Once a legacy client has completed `initialize`, the server's
//! announcements (list changes, updates of the resources it subscribed to)
//! go out on the same connection until its input ends.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter,
};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::jsonrpc::{ErrorObject, Incoming, decode, error_frame};
use crate::server::{Inbound, Peer, Server, Session, panicked, poll_catching};

/// Limits of the stdio transport.
#[derive(Debug, Clone)]
pub struct StdioConfig {
    /// The longest accepted line, in bytes (default 16 MiB). A longer line is
    /// skipped and answered with an error; the next line is served normally.
    pub max_line_bytes: usize,
    /// How long requests still running at end of input may take to finish
    /// before they are cancelled (default 5 s).
    pub shutdown_grace: Duration,
    /// Replies that may wait for the writer before handlers are slowed down
    /// (default 1024).
    pub write_queue: usize,
    /// Requests that may run at once (default 1024). Beyond it the server
    /// stops reading until one finishes, so a client that sends without
    /// reading cannot make it buffer without bound.
    pub max_in_flight: usize,
}

impl Default for StdioConfig {
    fn default() -> Self {
        StdioConfig {
            max_line_bytes: 16 * 1024 * 1024,
            shutdown_grace: Duration::from_secs(5),
            write_queue: 1024,
            max_in_flight: 1024,
        }
    }
}

impl Server {
    /// Serves this process's stdin and stdout until stdin closes.
    ///
    /// A request is first run by the loop that reads them, until it first
    /// waits: a tool that computes for long without an `.await` holds up
    /// the reading meanwhile, and belongs in `tokio::task::spawn_blocking`.
    pub async fn serve_stdio(self) -> io::Result<()> {
        self.serve_stdio_with(StdioConfig::default()).await
    }

    /// [`serve_stdio`](Self::serve_stdio) with explicit limits.
    ///
    /// When stdin and stdout are pipes (as when a client spawns the server)
    /// they are read and written directly through the reactor; otherwise
    /// (a terminal, a file) through tokio's blocking-pool adapters. The loop
    /// itself runs on a worker thread, so that the tasks it spawns start on
    /// the same thread.
    pub async fn serve_stdio_with(self, config: StdioConfig) -> io::Result<()> {
        self.spawn_stdio(config).await.map_err(io::Error::other)?
    }

    /// Starts the stdio loop on a worker. Never inlined: the caller's crate
    /// then holds only a `JoinHandle`, and the whole server, instantiated
    /// here once, is not compiled again into every binary that serves stdio
    /// (a third of a minimal server's own build).
    #[inline(never)]
    fn spawn_stdio(self, config: StdioConfig) -> tokio::task::JoinHandle<io::Result<()>> {
        tokio::spawn(self.serve_io(process_io::input(), process_io::output(), config))
    }

    /// Serves newline-delimited JSON-RPC over any byte stream pair until the
    /// input ends, then lets requests in flight finish (bounded by
    /// [`StdioConfig::shutdown_grace`]).
    pub async fn serve_io<R, W>(self, input: R, output: W, config: StdioConfig) -> io::Result<()>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (frames, queue) = mpsc::channel(config.write_queue.max(1));
        let writer = tokio::spawn(write_frames(output, queue));
        let peer = Peer::new(frames);
        let session = Arc::new(Session::new());
        // Each spawned request holds a permit until it ends, so taking all
        // of them back is how the drain below waits for the stragglers.
        let max_in_flight = u32::try_from(
            config
                .max_in_flight
                .clamp(1, tokio::sync::Semaphore::MAX_PERMITS),
        )
        .unwrap_or(u32::MAX);
        let permits = Arc::new(tokio::sync::Semaphore::new(max_in_flight as usize));
        let mut lines = LineReader::new(
            BufReader::with_capacity(64 * 1024, input),
            config.max_line_bytes,
        );
        let input_ended = CancellationToken::new();
        let mut feed = None;

        let read_result = loop {
            let line = match lines.next().await {
                Ok(Some(Line::Message(bytes))) => bytes,
                Ok(Some(Line::TooLong(len))) => {
                    tracing::warn!(len, limit = config.max_line_bytes, "oversized line dropped");
                    let error = ErrorObject::invalid_request(format!(
                        "message of {len} bytes exceeds the limit of {} bytes",
                        config.max_line_bytes
                    ));
                    peer.send(error_frame(None, &error)).await;
                    continue;
                }
                Ok(None) => break Ok(()),
                Err(e) => break Err(e),
            };
            match decode(line) {
                Ok(Incoming::Request(request)) => {
                    let Some(cancellation) = session.begin(&request.id) else {
                        let error = ErrorObject::invalid_request(format!(
                            "request id {} is already in flight",
                            request.id
                        ));
                        peer.send(error_frame(Some(&request.id), &error)).await;
                        continue;
                    };
                    // Boxed: the request's state machine is several KB,
                    // which Tokio would otherwise copy on every move into
                    // and out of the task (a fifth of the CPU at 64 in
                    // flight); a box is moved as a pointer.
                    let mut served = Box::pin(serve_one(
                        self.clone(),
                        session.clone(),
                        peer.clone(),
                        request,
                        cancellation,
                    ));
                    if session.era_decided() {
                        // Most calls finish without waiting on anything:
                        // served here, they cost no task and no wake-up of
                        // another worker (on a multi-thread runtime, most
                        // of a call's cost). One that waits continues in a
                        // task of its own, so it never holds up the reading.
                        if first_poll(served.as_mut()).await.is_pending() {
                            let permit = permits.clone().acquire_owned().await;
                            tokio::spawn(async move {
                                served.await;
                                drop(permit);
                            });
                        }
                    } else {
                        // Until the era is known (and for `initialize`),
                        // requests run in order so that a pipelined client's
                        // handshake is complete before its next request.
                        served.await;
                        if feed.is_none() {
                            feed = self.start_legacy_feed(&session, &peer, &input_ended);
                        }
                    }
                }
                Ok(Incoming::Notification(notification)) => {
                    self.handle_notification(&session, notification);
                }
                Ok(Incoming::Response(response)) => session.deliver(response),
                Err(rejected) if rejected.silent => {
                    tracing::debug!(error = %rejected.error, "malformed notification ignored");
                }
                Err(rejected) => {
                    peer.send(error_frame(rejected.id.as_ref(), &rejected.error))
                        .await;
                }
            }
        };

        // The client is gone: it is told of no more changes.
        input_ended.cancel();
        if let Some(feed) = feed {
            let _ = feed.await;
        }
        if tokio::time::timeout(config.shutdown_grace, permits.acquire_many(max_in_flight))
            .await
            .is_err()
        {
            tracing::warn!("requests still running at end of input were cancelled");
            session.cancel_all();
            let _ = permits.acquire_many(max_in_flight).await;
        }
        drop(peer);
        writer.await.map_err(io::Error::other)??;
        read_result
    }
}

impl Server {
    /// Starts sending the announcements of this server to the connection,
    /// once `session` is a legacy one that has completed `initialize` (a
    /// 2026-07-28 client asks with `subscriptions/listen`); until `stop`.
    fn start_legacy_feed(
        &self,
        session: &Arc<Session>,
        peer: &Peer,
        stop: &CancellationToken,
    ) -> Option<JoinHandle<()>> {
        session.legacy_client()?;
        let feed = self.legacy_feed(session.clone())?;
        let (peer, stop) = (peer.clone(), stop.clone());
        Some(tokio::spawn(async move {
            feed.run(&peer, stop.cancelled()).await;
        }))
    }
}

/// This process's stdin and stdout as async streams.
#[cfg(unix)]
mod process_io {
    use std::fs::File;
    use std::os::fd::AsFd;

    use tokio::io::{AsyncRead, AsyncWrite};
    use tokio::net::unix::pipe;

    /// Stdin: a pipe through the reactor when it is one.
    pub(super) fn input() -> Box<dyn AsyncRead + Unpin + Send> {
        let pipe = std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .and_then(|fd| pipe::Receiver::from_file(File::from(fd)).ok());
        match pipe {
            Some(pipe) => Box::new(pipe),
            None => Box::new(tokio::io::stdin()),
        }
    }

    /// Stdout: a pipe through the reactor when it is one.
    pub(super) fn output() -> Box<dyn AsyncWrite + Unpin + Send> {
        let pipe = std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .and_then(|fd| pipe::Sender::from_file(File::from(fd)).ok());
        match pipe {
            Some(pipe) => Box::new(pipe),
            None => Box::new(tokio::io::stdout()),
        }
    }
}

/// This process's stdin and stdout as async streams.
#[cfg(not(unix))]
mod process_io {
    use tokio::io::{AsyncRead, AsyncWrite};

    pub(super) fn input() -> Box<dyn AsyncRead + Unpin + Send> {
        Box::new(tokio::io::stdin())
    }

    pub(super) fn output() -> Box<dyn AsyncWrite + Unpin + Send> {
        Box::new(tokio::io::stdout())
    }
}

/// Serves one request and queues its reply, unless it is cancelled first.
async fn serve_one(
    server: Server,
    session: Arc<Session>,
    peer: Peer,
    request: crate::jsonrpc::Request,
    cancellation: tokio_util::sync::CancellationToken,
) {
    let id = request.id.clone();
    // A panic while the request is polled, outside its handler's own catch
    // (a handler's synchronous start, or a bug of ours), fails this request
    // alone: its first poll is the reading loop's, which must go on reading.
    let served = server.handle_request(
        &session,
        request,
        peer.clone(),
        cancellation.clone(),
        Inbound::default(),
    );
    let mut served = std::pin::pin!(served);
    let caught = std::future::poll_fn(|cx| poll_catching(served.as_mut(), cx));
    let reply = tokio::select! {
        biased;
        () = cancellation.cancelled() => None,
        answer = caught => Some(match answer {
            Ok(answer) => answer.frame,
            Err(failure) => error_frame(Some(&id), &panicked(failure)),
        }),
    };
    session.finish(&id);
    if let Some(frame) = reply {
        peer.send(frame).await;
    }
}

/// Polls `work` once, with the reading loop's waker; when it is pending
/// the task it moves to registers its own at the next poll.
async fn first_poll<F: Future + ?Sized>(mut work: Pin<&mut F>) -> Poll<F::Output> {
    std::future::poll_fn(move |cx| Poll::Ready(work.as_mut().poll(cx))).await
}

/// Writes frames as they come, one flush per batch of ready frames.
async fn write_frames<W: AsyncWrite + Unpin>(
    output: W,
    mut queue: mpsc::Receiver<Vec<u8>>,
) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64 * 1024, output);
    while let Some(frame) = queue.recv().await {
        let mut result = write_line(&mut out, &frame).await;
        while let (Ok(()), Ok(frame)) = (&result, queue.try_recv()) {
            result = write_line(&mut out, &frame).await;
        }
        if let Err(e) = result.and(out.flush().await) {
            // The reader is gone; keep draining so handlers never block.
            tracing::warn!(error = %e, "stdout closed; replies are dropped");
            while queue.recv().await.is_some() {}
            return Err(e);
        }
    }
    out.flush().await
}

async fn write_line<W: AsyncWrite + Unpin>(out: &mut BufWriter<W>, frame: &[u8]) -> io::Result<()> {
    out.write_all(frame).await?;
    out.write_all(b"\n").await
}

enum Line<'a> {
    Message(&'a [u8]),
    TooLong(usize),
}

/// A line buffer that grew past this is not kept for the next line: one
/// large message must not hold its memory for the rest of the connection.
const KEPT_LINE_CAPACITY: usize = 64 * 1024;

/// Splits input into lines without ever holding more than the limit.
struct LineReader<R> {
    input: R,
    max: usize,
    /// The line being read, kept from one line to the next: a message is
    /// decoded from here before the next is read, so reading one costs no
    /// allocation.
    line: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    fn new(input: R, max: usize) -> Self {
        LineReader {
            input,
            max,
            line: Vec::new(),
        }
    }

    /// The next non-blank line, `TooLong` for one over the limit, `None` at
    /// end of input.
    async fn next(&mut self) -> io::Result<Option<Line<'_>>> {
        loop {
            if self.line.capacity() > KEPT_LINE_CAPACITY {
                self.line = Vec::new();
            }
            let line = &mut self.line;
            line.clear();
            let mut len = 0usize;
            let mut eof = false;
            loop {
                let chunk = self.input.fill_buf().await?;
                if chunk.is_empty() {
                    eof = true;
                    break;
                }
                let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
                    Some(i) => (&chunk[..i], i + 1, true),
                    None => (chunk, chunk.len(), false),
                };
                len += part.len();
                if len <= self.max {
                    line.extend_from_slice(part);
                } else {
                    *line = Vec::new();
                }
                self.input.consume(used);
                if done {
                    break;
                }
            }
            if len > self.max {
                return Ok(Some(Line::TooLong(len)));
            }
            if line.ends_with(b"\r") {
                line.pop();
            }
            if !line.iter().all(u8::is_ascii_whitespace) {
                return Ok(Some(Line::Message(&self.line)));
            }
            if eof {
                return Ok(None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], max: usize) -> Vec<String> {
        let mut reader = LineReader::new(BufReader::with_capacity(4, input), max);
        let mut out = Vec::new();
        while let Some(line) = reader.next().await.unwrap() {
            out.push(match line {
                Line::Message(bytes) => String::from_utf8_lossy(bytes).into_owned(),
                Line::TooLong(len) => format!("<{len}>"),
            });
        }
        out
    }

    #[tokio::test]
    async fn splits_lines_skips_blanks_and_strips_cr() {
        assert_eq!(
            lines(b"a\r\n\n  \nbc\nlast", 100).await,
            ["a", "bc", "last"]
        );
    }

    #[tokio::test]
    async fn oversized_lines_are_reported_and_dropped() {
        assert_eq!(
            lines(b"short\n0123456789abc\nok\n", 8).await,
            ["short", "<13>", "ok"]
        );
    }

    #[tokio::test]
    async fn the_line_buffer_is_kept_unless_a_large_line_grew_it() {
        let large = "x".repeat(KEPT_LINE_CAPACITY + 1);
        let input = format!("{large}\nshort\nthird\n");
        let mut reader = LineReader::new(BufReader::new(input.as_bytes()), usize::MAX);
        let Some(Line::Message(first)) = reader.next().await.unwrap() else {
            panic!("the large line is read");
        };
        assert_eq!(first.len(), large.len());
        let Some(Line::Message(second)) = reader.next().await.unwrap() else {
            panic!("the short line is read");
        };
        assert_eq!(second, b"short");
        // The large line's memory went with it; the short one's is kept.
        let kept = reader.line.capacity();
        assert!((5..=KEPT_LINE_CAPACITY).contains(&kept), "{kept}");
        let address = reader.line.as_ptr();
        let Some(Line::Message(third)) = reader.next().await.unwrap() else {
            panic!("the third line is read");
        };
        assert_eq!(third, b"third");
        assert_eq!(
            reader.line.as_ptr(),
            address,
            "no new buffer for the next line"
        );
    }
}
