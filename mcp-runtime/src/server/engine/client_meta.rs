//! Who is calling: the era of a request, its protocol version and what the
//! client declared.

use crate::protocol::{ClientCapabilities, Implementation};

/// The protocol era a request was made in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2024-11-05 through 2025-11-25: `initialize` handshake, sessions.
    Legacy,
    /// 2026-07-28 and later: stateless, `_meta` on every request.
    Modern,
}

/// Who is calling: the negotiated version and what the client declared.
#[derive(Debug, Clone)]
pub struct ClientMeta {
    /// The era of the request.
    pub era: Era,
    /// The protocol version in force for the request.
    pub protocol_version: String,
    /// The client's name and version, when it sent them.
    pub client_info: Option<Implementation>,
    /// The capabilities the client declared.
    pub capabilities: ClientCapabilities,
}
