//! The standalone GET stream of a legacy session (Streamable HTTP,
//! 2025-03-26 to 2025-11-25): an SSE stream, not tied to any request, on
//! which the session is sent the server's announcements (its
//! [legacy feed](crate::server::Server::legacy_feed)). It never carries a
//! response. It ends when the client closes it, when the session ends
//! (DELETE, expiry) and when the server shuts down.

use std::sync::Arc;

use hyper::Response;
use hyper::body::Bytes;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::body::McpBody;
use super::exchange::event_stream;
use super::sessions::{Sessions, StreamClaim};
use super::sse;
use crate::server::{LegacyFeed, Peer};

/// Notifications waiting for the SSE writer; a feed that fills it falls
/// behind and is caught up (one of each notification) once it drains.
const FRAME_QUEUE: usize = 16;
/// SSE events waiting for a slow client.
const EVENT_QUEUE: usize = 16;

/// What ends a session's stream besides the client.
pub(super) struct Ends {
    /// The sessions, whose idle expiry the stream watches.
    pub(super) sessions: Arc<Sessions>,
    /// The session's id.
    pub(super) id: String,
    /// Fires at shutdown.
    pub(super) shutdown: CancellationToken,
}

/// Opens the stream of the session that `claim` and `ends` name, carrying
/// `feed`.
pub(super) fn open(feed: LegacyFeed, claim: StreamClaim, ends: Ends) -> Response<McpBody> {
    let (chunks, body) = mpsc::channel::<Bytes>(EVENT_QUEUE);
    tokio::spawn(async move {
        let (frames_tx, mut frames) = mpsc::channel(FRAME_QUEUE);
        // Nothing on this stream expects an answer.
        let peer = Peer::without_requests(frames_tx);
        let send = async {
            while let Some(frame) = frames.recv().await {
                if chunks.send(sse::event(&frame)).await.is_err() {
                    return;
                }
            }
        };
        let expired = async {
            while let Some(deadline) = ends.sessions.expiry(&ends.id) {
                tokio::time::sleep_until(deadline.into()).await;
            }
        };
        // Whichever ends first ends the stream (the claim goes with it).
        tokio::select! {
            () = feed.run(&peer, std::future::pending()) => {}
            () = send => {}
            () = chunks.closed() => {}
            () = claim.ended.cancelled() => {}
            () = ends.shutdown.cancelled() => {}
            () = expired => {}
        }
        drop(claim);
    });
    event_stream(McpBody::stream(body, None))
}
