//! `subscriptions/listen` (2026-07-28) kept open for as long as the caller
//! wants the notifications it asked for.

use std::time::Duration;

use serde_json::Value;

use super::{Client, ClientError};
use crate::protocol::{Method, SubscriptionFilter, SubscriptionsListenRequestParams};

/// The shortest time between two openings of the stream, so that a server
/// that ends it at once is not asked again in a tight loop.
const MIN_REOPEN_INTERVAL: Duration = Duration::from_secs(1);

/// An open `subscriptions/listen` stream; dropping it cancels the stream at
/// the server. It holds the connection open while it lives.
#[derive(Debug)]
pub struct Subscription {
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Subscription {
    /// Whether the stream ended for good: the connection closed or the
    /// server refused the subscription.
    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }
}

impl Client {
    /// Asks the server for the notifications `filter` names
    /// (`subscriptions/listen`, 2026-07-28). They arrive through
    /// [`notifications`](Self::notifications): subscribe there first, so
    /// that none is missed. The stream is reopened whenever it ends (the
    /// request timeout ends it too; the server then acknowledges again)
    /// until the returned [`Subscription`] is dropped. Legacy servers send
    /// notifications without being asked, so this is an error there.
    pub fn listen(&self, filter: SubscriptionFilter) -> Result<Subscription, ClientError> {
        self.in_era(
            Method::Listen,
            "legacy servers send notifications unasked (see `Client::notifications`)",
        )?;
        let client = self.clone();
        let task = tokio::spawn(async move {
            let params = SubscriptionsListenRequestParams {
                notifications: filter,
                meta: None,
            };
            loop {
                let opened = tokio::time::Instant::now();
                let ended = client.send::<_, Value>(Method::Listen, &params).await;
                match ended {
                    Ok(_) | Err(ClientError::Timeout) => {}
                    Err(ClientError::Protocol(error)) => {
                        tracing::warn!(reason = %error.message, "the server refused the subscription");
                        return;
                    }
                    Err(error) => {
                        tracing::debug!(%error, "the subscription ended with the connection");
                        return;
                    }
                }
                tokio::time::sleep_until(opened + MIN_REOPEN_INTERVAL).await;
            }
        });
        Ok(Subscription { task })
    }
}
