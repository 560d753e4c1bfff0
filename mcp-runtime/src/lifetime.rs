//! How long anything may last: one bound for the lifetimes a peer names
//! (an OAuth token's `expires_in`, a list's `ttlMs`) and for the limits a
//! caller sets (request timeouts, task TTLs). A number from a peer or a
//! configuration becomes a [`Duration`] through [`bounded`] before it meets
//! an instant or a clock, so that `now + lifetime` can neither panic
//! (`Instant + Duration` does on overflow) nor wrap (`u64` seconds do in a
//! release build), whatever the number.

use std::time::Duration;

/// The longest lifetime believed: one year. Longer than any token, cache
/// or job anyone means, and short enough that adding it to any instant or
/// Unix time cannot overflow. A token that claims to live longer is used
/// for a year, then refreshed; a timeout set longer runs out after a year.
pub const MAX_LIFETIME: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// `duration`, at most [`MAX_LIFETIME`].
pub fn bounded(duration: Duration) -> Duration {
    duration.min(MAX_LIFETIME)
}

/// `duration` in whole milliseconds, `u64::MAX` where it does not fit
/// (`as_millis() as u64` would wrap).
pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Now, in whole seconds since the Unix epoch: the clock tokens' `exp`,
/// `iat` and `expires_at` count in. A clock set before 1970 reads 0, so
/// that every dated token counts as expired rather than a panic.
#[cfg(feature = "http")]
pub(crate) fn unix_now() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_bounded_duration_can_be_added_to_now() {
        let longest = bounded(Duration::MAX);
        assert_eq!(longest, MAX_LIFETIME);
        let _ = std::time::Instant::now() + longest;
        let _ = tokio::time::Instant::now() + longest;
        assert_eq!(bounded(Duration::from_secs(5)), Duration::from_secs(5));
    }

    #[test]
    fn milliseconds_saturate() {
        assert_eq!(millis(Duration::MAX), u64::MAX);
        assert_eq!(millis(Duration::from_millis(1500)), 1500);
    }
}
