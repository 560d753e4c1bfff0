//! The way back to the client a request came from.

use tokio::sync::mpsc;

/// The channel to the client a request came from: frames pushed here are
/// written by the transport in order, interleaved with other responses.
#[derive(Clone, Debug)]
pub struct Peer {
    frames: mpsc::Sender<Vec<u8>>,
    /// Whether requests sent here reach the client (not over an HTTP
    /// response the client accepts only as JSON).
    carries_requests: bool,
}

impl Peer {
    pub(crate) fn new(frames: mpsc::Sender<Vec<u8>>) -> Self {
        Peer {
            frames,
            carries_requests: true,
        }
    }

    /// A peer that drops requests: asking the client fails at once instead
    /// of waiting for an answer that cannot come.
    #[cfg(feature = "http")]
    pub(crate) fn without_requests(frames: mpsc::Sender<Vec<u8>>) -> Self {
        Peer {
            frames,
            carries_requests: false,
        }
    }

    pub(crate) fn carries_requests(&self) -> bool {
        self.carries_requests
    }

    /// Queues one encoded frame; a closed transport drops it silently because
    /// the client that would read it is gone.
    pub(crate) async fn send(&self, frame: Vec<u8>) {
        let _ = self.frames.send(frame).await;
    }
}
