//! Keeping each server's tool list current: listed again when the server
//! announces a change (`notifications/tools/list_changed`, asked for with
//! `subscriptions/listen` in the 2026-07-28 era), and when its `ttlMs` ran
//! out.

use std::time::Duration;

use mcp_toolkit_runtime::client::{Client, Subscription};
use mcp_toolkit_runtime::jsonrpc::Notification;
use mcp_toolkit_runtime::protocol::methods::NOTIFICATION_TOOLS_LIST_CHANGED;
use mcp_toolkit_runtime::protocol::{Era, SubscriptionFilter};
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use crate::listed::Listing;
use crate::state::{ServerState, SharedState};

/// The shortest time between two listings prompted by announcements.
const MIN_RELIST_INTERVAL: Duration = Duration::from_millis(500);

/// The most queued notifications one listing stands for.
const MAX_COALESCED: usize = 1024;

/// What a connection hears from the moment it is made: its notifications,
/// and in the 2026-07-28 era the subscription that asks for list changes.
pub(crate) struct Listening {
    notices: Receiver<Notification>,
    _subscription: Option<Subscription>,
}

impl Listening {
    /// Starts listening to `client`. Legacy servers announce unasked;
    /// 2026-07-28 ones that declare `listChanged` are asked.
    pub(crate) fn begin(client: &Client) -> Listening {
        let notices = client.notifications();
        let announces = client
            .server()
            .capabilities
            .tools
            .as_ref()
            .and_then(|tools| tools.list_changed)
            == Some(true);
        let subscription = (announces && client.server().era == Era::Modern)
            .then(|| {
                let filter = SubscriptionFilter {
                    tools_list_changed: Some(true),
                    ..SubscriptionFilter::default()
                };
                client.listen(filter).ok()
            })
            .flatten();
        Listening {
            notices,
            _subscription: subscription,
        }
    }
}

/// Watches one connection for list changes; stops when dropped.
pub(crate) struct Watcher {
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Watcher {
    /// Lists `client`'s tools again into `state` whenever the server says
    /// they changed; a list takes at most `timeout`.
    pub(crate) fn start(
        state: SharedState,
        client: Client,
        listening: Listening,
        timeout: Duration,
    ) -> Watcher {
        let task = tokio::spawn(async move {
            let Listening {
                mut notices,
                _subscription,
            } = listening;
            loop {
                match notices.recv().await {
                    Ok(notice) if notice.method == NOTIFICATION_TOOLS_LIST_CHANGED => {}
                    Ok(_) => continue,
                    // Some were missed, and one may have been a change.
                    Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return,
                }
                // A burst of announcements is one change (bounded: a
                // server may announce faster than this drains).
                for _ in 0..MAX_COALESCED {
                    if let Err(TryRecvError::Empty | TryRecvError::Closed) = notices.try_recv() {
                        break;
                    }
                }
                relist(&state, &client, timeout).await;
                // A server that announces without pause is not listed
                // without pause: what it announces meanwhile waits.
                tokio::time::sleep(MIN_RELIST_INTERVAL).await;
            }
        });
        Watcher { task }
    }
}

/// Lists `client`'s tools again and puts them in `state`, unless the
/// connection was replaced meanwhile. A failure keeps the old list.
pub(crate) async fn relist(state: &SharedState, client: &Client, timeout: Duration) {
    let list = match client.tool_list_within(timeout).await {
        Ok(list) => list,
        Err(error) => {
            tracing::warn!(%error, "listing the tools again failed; the old list stays");
            return;
        }
    };
    // Compiled before the state is locked: calls read it meanwhile.
    let listing = Listing::compile(list);
    state.replace_with(|now| match &**now {
        ServerState::Ready {
            client: connected,
            freshness,
            ..
        } if connected.same_connection(client) => Some(ServerState::ready(
            client.clone(),
            listing,
            freshness.relisted.saturating_add(1),
        )),
        _ => None,
    });
}
