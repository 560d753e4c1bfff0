//! The memory of proofs already seen (RFC 9449 section 11.1): a proof's
//! `jti` is taken once per key while the proof is young enough to pass,
//! and forgotten after, when its age refuses it anyway.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::server::BoxFuture;
use crate::sync::lock;

/// A proof's identity in the cache: the SHA-256 of its key's thumbprint
/// and its `jti`, so that every entry has the same small size and two
/// clients choosing the same `jti` do not collide.
pub(crate) type ReplayKey = [u8; 32];

/// The key of the proof `jti` signed by the key `thumbprint`.
pub(crate) fn replay_key(thumbprint: &str, jti: &str) -> ReplayKey {
    let mut hash = hmac_sha256::Hash::new();
    hash.update(thumbprint);
    // A thumbprint is Base64url, so the separator cannot occur in it.
    hash.update([0]);
    hash.update(jti);
    hash.finalize()
}

/// Where seen proofs are remembered: this process's memory, or a store
/// the instances of a server share (Redis, `SET key 1 NX PX ttl`, in
/// `server::shared`).
pub(crate) trait ReplayCache: Send + Sync + fmt::Debug + 'static {
    /// Remembers `key` for `ttl`: `Ok(true)` the first time, `Ok(false)`
    /// while it is remembered.
    fn first_use(&self, key: ReplayKey, ttl: Duration) -> BoxFuture<Result<bool, ReplayError>>;
}

/// Why the cache could not tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReplayError {
    /// The cache holds as many unexpired proofs as it may.
    Full,
    /// The shared store did not answer (the text says why).
    #[cfg_attr(not(feature = "redis"), expect(dead_code))]
    Unavailable(String),
}

/// A cache in this process's memory, bounded in entries and time. When
/// full, it refuses new proofs rather than forget unexpired ones: a
/// forgotten proof could be replayed, and anyone holding a valid token
/// could make the cache forget on purpose by flooding it.
#[derive(Debug)]
pub(crate) struct MemoryReplayCache {
    max_entries: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    seen: HashSet<ReplayKey>,
    /// Every key of `seen` once, soonest expiry first.
    expiries: BinaryHeap<Reverse<(Instant, ReplayKey)>>,
}

impl MemoryReplayCache {
    /// A cache of at most `max_entries` proofs.
    pub(crate) fn new(max_entries: usize) -> Self {
        MemoryReplayCache {
            max_entries,
            state: Mutex::default(),
        }
    }

    fn insert(&self, key: ReplayKey, ttl: Duration, now: Instant) -> Result<bool, ReplayError> {
        let mut state = lock(&self.state);
        while let Some(Reverse((expiry, _))) = state.expiries.peek()
            && *expiry <= now
        {
            if let Some(Reverse((_, old))) = state.expiries.pop() {
                state.seen.remove(&old);
            }
        }
        if state.seen.contains(&key) {
            return Ok(false);
        }
        if state.seen.len() >= self.max_entries {
            return Err(ReplayError::Full);
        }
        state.seen.insert(key);
        // A ttl past what Instant holds is remembered as long as it can be,
        // never forgotten at once.
        let expiry = now
            .checked_add(ttl)
            .or_else(|| now.checked_add(Duration::from_secs(u32::MAX.into())))
            .unwrap_or(now);
        state.expiries.push(Reverse((expiry, key)));
        Ok(true)
    }
}

impl ReplayCache for MemoryReplayCache {
    fn first_use(&self, key: ReplayKey, ttl: Duration) -> BoxFuture<Result<bool, ReplayError>> {
        let answer = self.insert(key, ttl, Instant::now());
        Box::pin(std::future::ready(answer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_taken_once_until_it_expires() {
        let cache = MemoryReplayCache::new(10);
        let start = Instant::now();
        let key = replay_key("thumb", "jti");
        let ttl = Duration::from_secs(60);
        assert_eq!(cache.insert(key, ttl, start), Ok(true));
        assert_eq!(cache.insert(key, ttl, start + ttl / 2), Ok(false));
        // Another key's jti, or another jti of the key, is new.
        assert_eq!(
            cache.insert(replay_key("other", "jti"), ttl, start),
            Ok(true)
        );
        assert_eq!(
            cache.insert(replay_key("thumb", "jti2"), ttl, start),
            Ok(true)
        );
        assert_eq!(cache.insert(key, ttl, start + ttl), Ok(true));
    }

    #[test]
    fn a_full_cache_refuses_rather_than_forgets() {
        let cache = MemoryReplayCache::new(2);
        let start = Instant::now();
        let short = Duration::from_secs(10);
        let long = Duration::from_secs(100);
        assert_eq!(cache.insert(replay_key("k", "a"), long, start), Ok(true));
        assert_eq!(cache.insert(replay_key("k", "b"), short, start), Ok(true));
        let c = replay_key("k", "c");
        assert_eq!(cache.insert(c, long, start), Err(ReplayError::Full));
        // Once one entry expires, there is room again; the other stays.
        assert_eq!(cache.insert(c, long, start + short), Ok(true));
        assert_eq!(
            cache.insert(replay_key("k", "a"), long, start + short),
            Ok(false)
        );
    }

    #[test]
    fn the_separator_keeps_thumbprint_and_jti_apart() {
        assert_ne!(replay_key("ab", "c"), replay_key("a", "bc"));
    }
}
