//! The way back to the client a request came from.

#[cfg(feature = "http")]
use std::sync::{Arc, Mutex};

#[cfg(feature = "http")]
use tokio::sync::Notify;
use tokio::sync::mpsc;

#[cfg(feature = "http")]
use crate::sync::lock;

/// Frames a handler may queue on one HTTP request before it is slowed down.
#[cfg(feature = "http")]
const OUTBOX_QUEUE: usize = 64;

/// The channel to the client a request came from: frames pushed here are
/// written by the transport in order, interleaved with other responses.
#[derive(Clone, Debug)]
pub struct Peer {
    frames: Frames,
    /// Whether requests sent here reach the client (not over an HTTP
    /// response the client accepts only as JSON).
    carries_requests: bool,
}

/// Where a [`Peer`]'s frames go.
#[derive(Clone, Debug)]
enum Frames {
    /// A connection's channel (stdio), open for as long as it is.
    Open(mpsc::Sender<Vec<u8>>),
    /// One HTTP request's, whose channel its first frame makes.
    #[cfg(feature = "http")]
    Outbox(Arc<Outbox>),
    /// Nowhere: the client takes nothing but the response (an HTTP
    /// request that accepts only JSON).
    #[cfg(feature = "http")]
    Discarded,
}

impl Peer {
    pub(crate) fn new(frames: mpsc::Sender<Vec<u8>>) -> Self {
        Peer {
            frames: Frames::Open(frames),
            carries_requests: true,
        }
    }

    /// A peer on a connection's channel that carries no requests: asking
    /// the client fails at once instead of waiting for an answer that
    /// cannot come (a legacy session's standalone stream).
    #[cfg(feature = "http")]
    pub(crate) fn without_requests(frames: mpsc::Sender<Vec<u8>>) -> Self {
        Peer {
            frames: Frames::Open(frames),
            carries_requests: false,
        }
    }

    /// The peer of one HTTP request that may turn into an event stream.
    #[cfg(feature = "http")]
    pub(crate) fn outbox(outbox: Arc<Outbox>) -> Self {
        Peer {
            frames: Frames::Outbox(outbox),
            carries_requests: true,
        }
    }

    /// The peer of one HTTP request answered with JSON alone: it drops
    /// notifications, and asking the client fails at once instead of
    /// waiting for an answer that cannot come.
    #[cfg(feature = "http")]
    pub(crate) fn discarding() -> Self {
        Peer {
            frames: Frames::Discarded,
            carries_requests: false,
        }
    }

    pub(crate) fn carries_requests(&self) -> bool {
        self.carries_requests
    }

    /// Queues one encoded frame; a closed transport drops it silently because
    /// the client that would read it is gone.
    pub(crate) async fn send(&self, frame: Vec<u8>) {
        match &self.frames {
            Frames::Open(sender) => {
                let _ = sender.send(frame).await;
            }
            #[cfg(feature = "http")]
            Frames::Outbox(outbox) => {
                if let Some(sender) = outbox.sender() {
                    let _ = sender.send(frame).await;
                }
            }
            #[cfg(feature = "http")]
            Frames::Discarded => {
                tracing::debug!("notification dropped: the client accepts no event stream");
            }
        }
    }
}

/// The frames one HTTP request's handler sends before its result. Most
/// send none, so the channel (two allocations, one 128-byte aligned) is
/// made by the first frame; the exchange waits for [`opened`](Self::opened)
/// to turn its response into an event stream.
#[cfg(feature = "http")]
#[derive(Debug, Default)]
pub(crate) struct Outbox {
    state: Mutex<OutboxState>,
    opened: Notify,
}

#[cfg(feature = "http")]
#[derive(Debug, Default)]
enum OutboxState {
    #[default]
    Unopened,
    Open {
        sender: mpsc::Sender<Vec<u8>>,
        /// Until the exchange takes it to stream the frames.
        receiver: Option<mpsc::Receiver<Vec<u8>>>,
    },
    /// The exchange ended without streaming: frames go nowhere.
    Closed,
}

#[cfg(feature = "http")]
impl Outbox {
    /// Where the next frame goes, the channel made by the first; `None`
    /// once closed.
    fn sender(&self) -> Option<mpsc::Sender<Vec<u8>>> {
        let mut state = lock(&self.state);
        match &*state {
            OutboxState::Open { sender, .. } => Some(sender.clone()),
            OutboxState::Closed => None,
            OutboxState::Unopened => {
                let (sender, receiver) = mpsc::channel(OUTBOX_QUEUE);
                *state = OutboxState::Open {
                    sender: sender.clone(),
                    receiver: Some(receiver),
                };
                self.opened.notify_one();
                Some(sender)
            }
        }
    }

    /// Resolves once the first frame has made the channel (at once if it
    /// already has), possibly before that frame is queued; for the one
    /// exchange that waits, once.
    pub(crate) async fn opened(&self) {
        self.opened.notified().await;
    }

    /// The frames' receiving end, once the first frame opened the channel
    /// and until it is taken.
    pub(crate) fn take(&self) -> Option<mpsc::Receiver<Vec<u8>>> {
        match &mut *lock(&self.state) {
            OutboxState::Open { receiver, .. } => receiver.take(),
            _ => None,
        }
    }

    /// Frames sent from now on go nowhere, unless their receiver was taken
    /// (a stream reads them until the request ends).
    pub(crate) fn close(&self) {
        let mut state = lock(&self.state);
        if !matches!(*state, OutboxState::Open { receiver: None, .. }) {
            *state = OutboxState::Closed;
        }
    }
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use std::time::Duration;

    use super::*;

    /// The first frame opens the channel: the exchange, already waiting
    /// as it does, is told, and the receiver it takes holds that frame and
    /// those after it.
    #[tokio::test]
    async fn the_first_frame_opens_the_outbox_and_the_receiver_holds_it() {
        let outbox = Arc::new(Outbox::default());
        let peer = Peer::outbox(outbox.clone());
        assert!(outbox.take().is_none(), "nothing to take before a frame");
        let sending = tokio::spawn(async move {
            peer.send(b"one".to_vec()).await;
            peer.send(b"two".to_vec()).await;
        });
        tokio::time::timeout(Duration::from_secs(5), outbox.opened())
            .await
            .expect("the first frame tells the exchange");
        sending.await.unwrap();
        let mut frames = outbox.take().expect("the receiver, once");
        assert!(outbox.take().is_none());
        assert_eq!(frames.recv().await.as_deref(), Some(&b"one"[..]));
        assert_eq!(frames.recv().await.as_deref(), Some(&b"two"[..]));
    }

    /// A handler's send that waits for room when the exchange ends (the
    /// channel full, nobody to read it) returns: closing lets go of the
    /// receiver.
    #[tokio::test]
    async fn close_releases_a_send_waiting_for_room() {
        let outbox = Arc::new(Outbox::default());
        let peer = Peer::outbox(outbox.clone());
        for _ in 0..OUTBOX_QUEUE {
            peer.send(b"queued".to_vec()).await;
        }
        let waiting = tokio::spawn(async move { peer.send(b"one more".to_vec()).await });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "the channel is full");
        outbox.close();
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the waiting send returns once the outbox is closed")
            .unwrap();
    }

    /// Once the exchange ended without streaming, frames go nowhere and
    /// sending never waits for room a reader would make (a handler's
    /// background work that outlives its request would hang).
    #[tokio::test]
    async fn after_close_frames_are_dropped_without_waiting() {
        for opened_first in [false, true] {
            let outbox = Arc::new(Outbox::default());
            let peer = Peer::outbox(outbox.clone());
            if opened_first {
                peer.send(b"before".to_vec()).await;
            }
            outbox.close();
            sends_return_at_once(&peer).await;
            assert!(outbox.take().is_none());
        }
    }

    /// A stream took the receiver: closing the exchange leaves it open, so
    /// the stream reads what the handler sends until the request ends.
    #[tokio::test]
    async fn close_leaves_a_taken_receiver_open() {
        let outbox = Arc::new(Outbox::default());
        let peer = Peer::outbox(outbox.clone());
        peer.send(b"first".to_vec()).await;
        let mut frames = outbox.take().expect("opened");
        outbox.close();
        peer.send(b"later".to_vec()).await;
        assert_eq!(frames.recv().await.as_deref(), Some(&b"first"[..]));
        assert_eq!(frames.recv().await.as_deref(), Some(&b"later"[..]));
    }

    /// A client that takes only JSON cannot be asked, and what is sent to
    /// it is dropped at once.
    #[tokio::test]
    async fn a_discarding_peer_carries_no_requests_and_drops_frames_at_once() {
        let peer = Peer::discarding();
        assert!(!peer.carries_requests());
        sends_return_at_once(&peer).await;
    }

    /// Twice as many sends as a channel holds, none waiting for a reader.
    async fn sends_return_at_once(peer: &Peer) {
        let sends = async {
            for _ in 0..OUTBOX_QUEUE * 2 {
                peer.send(b"nowhere".to_vec()).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(5), sends)
            .await
            .expect("sends return at once");
    }
}
