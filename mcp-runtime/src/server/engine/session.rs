//! Per-connection state: the era the connection speaks, what a legacy client
//! declared in `initialize`, its log level, the resources it subscribed to,
//! and the requests in flight (so that `notifications/cancelled` can reach
//! them).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use tokio_util::sync::CancellationToken;

use super::classify::Decoded;
use super::client_meta::{ClientMeta, Era};
use super::inbound::Inbound;
use super::input::Replies;
use super::method::{Method, method_name};
use super::subscribe::Subscriptions;
use crate::jsonrpc::{ErrorObject, RequestId, Response};
use crate::protocol::{LoggingLevel, META_PROTOCOL_VERSION};
use crate::sync::lock;

/// The state of one connection (one stdio pair, one legacy HTTP session).
#[derive(Debug, Default)]
pub struct Session {
    era: OnceLock<Era>,
    legacy_client: OnceLock<Arc<ClientMeta>>,
    /// 0 = no `logging/setLevel` yet, else severity + 1.
    log_level: AtomicU8,
    in_flight: Mutex<HashMap<RequestId, CancellationToken>>,
    /// Our requests to the client (legacy era) awaiting its answers.
    pub(crate) replies: Replies,
    /// The resources a legacy client follows (`resources/subscribe`).
    pub(crate) subscriptions: Subscriptions,
    /// Made for a single stateless HTTP request, so it identifies no client.
    one_request: bool,
}

impl Session {
    /// A connection whose era is picked by its first request.
    pub fn new() -> Self {
        Session::default()
    }

    /// The session of one stateless HTTP request: nothing carries over to
    /// the next, and it says nothing about who the client is.
    #[cfg(feature = "http")]
    pub(crate) fn for_one_request() -> Self {
        Session {
            one_request: true,
            ..Session::default()
        }
    }

    /// Whether this session is a connection that serves more than one
    /// request (a stdio pair, a legacy HTTP session), so that it stands for
    /// one client.
    pub(crate) fn outlives_request(&self) -> bool {
        !self.one_request
    }

    /// A legacy session that skips the handshake, as if `client` had sent
    /// `initialize` (stateless HTTP serves each request on one of these).
    #[cfg(feature = "http")]
    pub(crate) fn preinitialized(client: ClientMeta) -> Self {
        let session = Session::for_one_request();
        let _ = session.era.set(Era::Legacy);
        let _ = session.legacy_client.set(Arc::new(client));
        session
    }

    /// The era of this connection, choosing it on the first request: the
    /// era the request asks for ([`Decoded::era_asked`]); `ping` is
    /// answered without choosing, and anything else is refused.
    pub(crate) fn era_for(&self, request: &Decoded, inbound: &Inbound) -> Result<Era, ErrorObject> {
        if let Some(era) = self.era.get() {
            return Ok(*era);
        }
        let era = match request.era_asked(inbound) {
            Some(era) => era,
            // Harmless before the handshake; answer without choosing.
            None if request.method == Ok(Method::Ping) => return Ok(Era::Legacy),
            None => {
                return Err(ErrorObject::invalid_request(format!(
                    "`{}` before `initialize`: start with `initialize` (protocol 2025-11-25 \
                     and earlier) or send `_meta` with `{META_PROTOCOL_VERSION}` (2026-07-28)",
                    method_name(&request.method)
                )));
            }
        };
        Ok(*self.era.get_or_init(|| era))
    }

    /// Whether the era is settled and, for the legacy era, `initialize` has
    /// been answered: from then on requests may run in any order.
    pub fn era_decided(&self) -> bool {
        match self.era.get() {
            Some(Era::Modern) => true,
            Some(Era::Legacy) => self.legacy_client.get().is_some(),
            None => false,
        }
    }

    /// Delivers the client's answer to a request the server sent it.
    pub(crate) fn deliver(&self, response: Response) {
        self.replies.complete(response);
    }

    /// Records what a legacy client declared; `false` when it already did.
    pub(crate) fn set_legacy_client(&self, client: ClientMeta) -> bool {
        self.legacy_client.set(Arc::new(client)).is_ok()
    }

    /// What the legacy client declared in `initialize`.
    pub(crate) fn legacy_client(&self) -> Option<Arc<ClientMeta>> {
        self.legacy_client.get().cloned()
    }

    pub(crate) fn set_log_level(&self, level: LoggingLevel) {
        self.log_level.store(level as u8 + 1, Ordering::Relaxed);
    }

    pub(crate) fn log_level(&self) -> Option<LoggingLevel> {
        use LoggingLevel::*;
        const LEVELS: [LoggingLevel; 8] = [
            Debug, Info, Notice, Warning, Error, Critical, Alert, Emergency,
        ];
        let stored = self.log_level.load(Ordering::Relaxed);
        stored.checked_sub(1).map(|i| LEVELS[usize::from(i)])
    }

    /// Registers a request in flight; its token fires on cancellation.
    /// `None` when a request with the same id is still in flight.
    pub(crate) fn begin(&self, id: &RequestId) -> Option<CancellationToken> {
        let mut in_flight = self.lock_in_flight();
        if in_flight.contains_key(id) {
            return None;
        }
        let token = CancellationToken::new();
        in_flight.insert(id.clone(), token.clone());
        Some(token)
    }

    /// Forgets a finished request.
    pub(crate) fn finish(&self, id: &RequestId) {
        self.lock_in_flight().remove(id);
    }

    /// Fires the token of request `id`, if it is still in flight. The entry
    /// stays until the request's task calls [`finish`](Self::finish), so a
    /// client reusing the id meanwhile is refused rather than confused with it.
    pub(crate) fn cancel(&self, id: &RequestId) {
        if let Some(token) = self.lock_in_flight().get(id) {
            token.cancel();
        }
    }

    /// Fires every token (the connection is going away).
    pub(crate) fn cancel_all(&self) {
        for (_, token) in self.lock_in_flight().drain() {
            token.cancel();
        }
    }

    fn lock_in_flight(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, CancellationToken>> {
        lock(&self.in_flight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_id_stays_taken_until_its_task_finishes() {
        let session = Session::new();
        let id = RequestId::Int(5);
        let first = session.begin(&id).unwrap();
        session.cancel(&id);
        assert!(first.is_cancelled());
        assert!(
            session.begin(&id).is_none(),
            "reuse while the first still runs is refused"
        );
        session.finish(&id);
        let second = session.begin(&id).unwrap();
        session.cancel(&id);
        assert!(second.is_cancelled(), "the reused id is cancellable");
    }
}
