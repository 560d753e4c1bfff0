//! `notifications/elicitation/complete` (2025-11-25): a server saying that
//! the out-of-band interaction of a URL-mode elicitation finished, as a
//! typed stream.

use tokio::sync::broadcast::{self, error::RecvError};

use super::Client;
use crate::jsonrpc::Notification;
use crate::protocol::ElicitationCompleteNotificationParams;
use crate::protocol::methods::NOTIFICATION_ELICITATION_COMPLETE;

/// The URL-mode elicitations a server says are finished, from
/// [`Client::elicitation_completions`].
#[derive(Debug)]
pub struct ElicitationCompletions {
    notices: broadcast::Receiver<Notification>,
}

impl ElicitationCompletions {
    /// The next completion; `None` once the connection is gone. Ids are the
    /// server's, as the URL-mode request carried them
    /// ([`ElicitRequestUrlParams::elicitation_id`](crate::protocol::ElicitRequestUrlParams::elicitation_id));
    /// one the application does not know (or already saw finish) is to be
    /// ignored. A reader more than 256 notifications behind misses the
    /// oldest.
    pub async fn next(&mut self) -> Option<ElicitationCompleteNotificationParams> {
        loop {
            let notice = match self.notices.recv().await {
                Ok(notice) => notice,
                Err(RecvError::Lagged(missed)) => {
                    tracing::debug!(missed, "elicitation completions read too slowly");
                    continue;
                }
                Err(RecvError::Closed) => return None,
            };
            if notice.method != NOTIFICATION_ELICITATION_COMPLETE {
                continue;
            }
            match notice.params.map(serde_json::from_value) {
                Some(Ok(params)) => return Some(params),
                _ => tracing::debug!("unreadable notifications/elicitation/complete ignored"),
            }
        }
    }
}

impl Client {
    /// The `notifications/elicitation/complete` the server sends from now
    /// on (2025-11-25): each names a URL-mode elicitation whose
    /// out-of-band interaction finished, so the application can close its
    /// prompt or retry what needed it. 2026-07-28 has no such
    /// notification: there the request that asked is retried once the user
    /// answered. Subscribe before the call that may ask, so none is missed.
    pub fn elicitation_completions(&self) -> ElicitationCompletions {
        ElicitationCompletions {
            notices: self.notifications(),
        }
    }
}
