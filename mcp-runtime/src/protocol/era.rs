//! The two protocol eras a message can belong to.

/// The protocol era a request was made in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2024-11-05 through 2025-11-25: `initialize` handshake, sessions.
    Legacy,
    /// 2026-07-28 and later: stateless, `_meta` on every request.
    Modern,
}
