//! Legacy (2025-11-25 and earlier) sessions: minted by `initialize`, named
//! by an unguessable `Mcp-Session-Id`, ended by DELETE or by idling.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

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
        live.retain(|_, entry| {
            let keep = now.duration_since(entry.last_used) < self.idle_timeout;
            if !keep {
                entry.session.cancel_all();
            }
            keep
        });
        if live.len() >= self.max {
            return Err(InsertError::Full);
        }
        live.insert(
            id.clone(),
            Entry {
                session,
                last_used: now,
                owner,
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
                expired.session.cancel_all();
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
        let removed = live.remove(id);
        removed
            .inspect(|entry| entry.session.cancel_all())
            .is_some()
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
