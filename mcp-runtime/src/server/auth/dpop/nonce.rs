//! Server-provided nonces (RFC 9449 section 9), derived rather than
//! stored: the nonce of each period is the HMAC of the period's number
//! under a random key. Requests read it without a lock, it changes when
//! the clock crosses into the next period, and the previous period's
//! nonce is still taken, so that a client that just got one is never
//! refused for the rotation alone.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The nonces of one server.
pub(crate) struct Nonces {
    key: [u8; 32],
    /// The length of a period, in seconds (at least one).
    period: u64,
}

impl Nonces {
    /// Nonces that rotate every `period` (rounded down to whole seconds,
    /// at least one), under a key drawn from the OS.
    pub(crate) fn new(period: Duration) -> Self {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).expect("the OS random source is available");
        Nonces {
            key,
            period: period.as_secs().max(1),
        }
    }

    /// The nonce to hand out at `now` (Unix seconds).
    pub(crate) fn current(&self, now: u64) -> String {
        self.of(now / self.period)
    }

    /// The nonce of the period before `now`'s, still taken.
    pub(crate) fn previous(&self, now: u64) -> String {
        self.of((now / self.period).saturating_sub(1))
    }

    fn of(&self, period: u64) -> String {
        URL_SAFE_NO_PAD.encode(hmac_sha256::HMAC::mac(period.to_be_bytes(), self.key))
    }
}

/// Never the key.
impl std::fmt::Debug for Nonces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nonces")
            .field("period", &self.period)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonce_lasts_its_period_and_the_next() {
        let nonces = Nonces::new(Duration::from_secs(60));
        let first = nonces.current(600);
        assert_eq!(nonces.current(659), first);
        assert_ne!(nonces.current(660), first);
        assert_eq!(nonces.previous(660), first);
        assert_eq!(nonces.previous(719), first);
        assert_ne!(nonces.previous(720), first);
        // Another server's nonces are its own.
        assert_ne!(Nonces::new(Duration::from_secs(60)).current(600), first);
        assert!(!format!("{nonces:?}").contains("key"));
    }
}
