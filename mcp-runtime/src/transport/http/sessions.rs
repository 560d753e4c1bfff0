//! Legacy (2025-11-25 and earlier) sessions: minted by `initialize`, named
//! by an unguessable `Mcp-Session-Id`, ended by DELETE or by idling; each
//! with at most one standalone GET stream open.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use crate::server::Session;
use crate::sync::lock;

/// Why a session could not be stored.
#[derive(Debug)]
pub(super) enum InsertError {
    /// [`HttpConfig::max_sessions`](super::HttpConfig::max_sessions) live
    /// sessions exist.
    Full,
    /// The operating system's random source failed.
    Random(getrandom::Error),
}

/// Why a session's standalone stream cannot open.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum StreamRefusal {
    /// The session ended meanwhile.
    Unknown,
    /// The session has one open already.
    Busy,
}

/// The right to a session's one standalone stream, given back on drop.
#[derive(Debug)]
pub(super) struct StreamClaim {
    open: Arc<AtomicBool>,
    /// Fires when the session ends (DELETE, expiry).
    pub(super) ended: CancellationToken,
}

impl Drop for StreamClaim {
    fn drop(&mut self) {
        self.open.store(false, Ordering::Release);
    }
}

/// The live sessions of one server.
pub(super) struct Sessions {
    live: Mutex<HashMap<String, Entry>>,
    idle_timeout: Duration,
    max: usize,
}

struct Entry {
    session: Arc<Session>,
    last_used: Instant,
    /// Who started the session on a protected endpoint; only they may use
    /// it, so that a leaked session id is useless with another token.
    owner: Option<String>,
    /// Whether its standalone stream is open.
    stream_open: Arc<AtomicBool>,
    /// Fires when the session ends.
    ended: CancellationToken,
}

impl Entry {
    /// Ends the session: its requests in flight are cancelled, its stream
    /// closes.
    fn end(self) {
        self.session.cancel_all();
        self.ended.cancel();
    }
}

impl Sessions {
    pub(super) fn new(idle_timeout: Duration, max: usize) -> Self {
        Sessions {
            live: Mutex::new(HashMap::new()),
            idle_timeout,
            max,
        }
    }

    /// Stores a session that just completed `initialize`; returns its id.
    pub(super) fn insert(
        &self,
        session: Arc<Session>,
        owner: Option<String>,
    ) -> Result<String, InsertError> {
        let id = new_id().map_err(InsertError::Random)?;
        let mut live = self.lock();
        let now = Instant::now();
        let expired: Vec<String> = live
            .iter()
            .filter(|(_, entry)| now.duration_since(entry.last_used) >= self.idle_timeout)
            .map(|(id, _)| id.clone())
            .collect();
        for entry in expired.iter().filter_map(|id| live.remove(id)) {
            entry.end();
        }
        if live.len() >= self.max {
            return Err(InsertError::Full);
        }
        live.insert(
            id.clone(),
            Entry {
                session,
                last_used: now,
                owner,
                stream_open: Arc::default(),
                ended: CancellationToken::new(),
            },
        );
        Ok(id)
    }

    /// The session named `id`, marking it used; `None` when there is none or
    /// it has expired (it is then forgotten).
    /// The live session `id`, when `owner` is the one that started it.
    pub(super) fn get(&self, id: &str, owner: Option<&str>) -> Option<Arc<Session>> {
        let mut live = self.lock();
        let entry = live.get_mut(id)?;
        if entry.owner.as_deref() != owner {
            return None;
        }
        let now = Instant::now();
        if now.duration_since(entry.last_used) >= self.idle_timeout {
            if let Some(expired) = live.remove(id) {
                expired.end();
            }
            return None;
        }
        entry.last_used = now;
        Some(entry.session.clone())
    }

    /// Ends the session named `id`, cancelling its requests in flight;
    /// `false` when there is none.
    /// Ends the session `id`, when `owner` is the one that started it.
    pub(super) fn remove(&self, id: &str, owner: Option<&str>) -> bool {
        let mut live = self.lock();
        if live
            .get(id)
            .is_none_or(|entry| entry.owner.as_deref() != owner)
        {
            return false;
        }
        live.remove(id).map(Entry::end).is_some()
    }

    /// Claims the one standalone stream of session `id` (whose owner was
    /// checked by [`get`](Self::get)).
    pub(super) fn claim_stream(&self, id: &str) -> Result<StreamClaim, StreamRefusal> {
        let live = self.lock();
        let entry = live.get(id).ok_or(StreamRefusal::Unknown)?;
        if entry.stream_open.swap(true, Ordering::AcqRel) {
            return Err(StreamRefusal::Busy);
        }
        Ok(StreamClaim {
            open: entry.stream_open.clone(),
            ended: entry.ended.clone(),
        })
    }

    /// When session `id` expires unless it is used before; `None` once it
    /// has ended (an expired one is ended now).
    pub(super) fn expiry(&self, id: &str) -> Option<Instant> {
        let mut live = self.lock();
        let deadline = live.get(id)?.last_used + self.idle_timeout;
        if Instant::now() >= deadline {
            if let Some(expired) = live.remove(id) {
                expired.end();
            }
            return None;
        }
        Some(deadline)
    }

    /// Cancels the requests in flight of every session (at shutdown).
    pub(super) fn cancel_all(&self) {
        for entry in self.lock().values() {
            entry.session.cancel_all();
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        lock(&self.live)
    }
}

/// 256 random bits from the OS CSPRNG, as 64 hex digits (visible ASCII, as
/// the spec requires).
fn new_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(hex::encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_long_random_and_distinct() {
        let sessions = Sessions::new(Duration::from_secs(60), 10);
        let a = sessions.insert(Arc::new(Session::new()), None).unwrap();
        let b = sessions.insert(Arc::new(Session::new()), None).unwrap();
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert!(sessions.get(&a, None).is_some());
        assert!(sessions.remove(&a, None));
        assert!(sessions.get(&a, None).is_none());
        assert!(!sessions.remove(&a, None));
    }

    #[test]
    fn full_and_expiry() {
        let sessions = Sessions::new(Duration::from_millis(50), 1);
        let a = sessions.insert(Arc::new(Session::new()), None).unwrap();
        assert!(matches!(
            sessions.insert(Arc::new(Session::new()), None),
            Err(InsertError::Full)
        ));
        std::thread::sleep(Duration::from_millis(60));
        assert!(sessions.get(&a, None).is_none());
        // Expired sessions make room.
        assert!(sessions.insert(Arc::new(Session::new()), None).is_ok());
    }

    #[test]
    fn a_session_serves_only_its_owner() {
        let sessions = Sessions::new(Duration::from_secs(60), 10);
        let id = sessions
            .insert(Arc::new(Session::new()), Some("iss alice".into()))
            .unwrap();
        assert!(sessions.get(&id, Some("iss mallory")).is_none());
        assert!(sessions.get(&id, None).is_none());
        assert!(!sessions.remove(&id, Some("iss mallory")));
        assert!(sessions.get(&id, Some("iss alice")).is_some());
        assert!(sessions.remove(&id, Some("iss alice")));
    }
}
