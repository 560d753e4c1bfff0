//! Stateless legacy requests ([`HttpConfig::stateless_legacy`](super::HttpConfig::stateless_legacy)):
//! each is served on a session of its own, as if `initialize` had just
//! declared no capabilities.

use std::sync::Arc;

use hyper::HeaderMap;

use crate::protocol::LEGACY_PROTOCOL_VERSIONS;
use crate::protocol::headers::MCP_PROTOCOL_VERSION;
use crate::server::{ClientMeta, Era, Session};

/// The version the spec says a server assumes when a legacy request names
/// none in `MCP-Protocol-Version`.
const ASSUMED_VERSION: &str = "2025-03-26";

/// A fresh, already initialized legacy session for one request.
pub(super) fn session(headers: &HeaderMap) -> Arc<Session> {
    let version = headers
        .get(MCP_PROTOCOL_VERSION)
        .and_then(|v| v.to_str().ok())
        .filter(|v| LEGACY_PROTOCOL_VERSIONS.contains(v))
        .unwrap_or(ASSUMED_VERSION);
    Arc::new(Session::preinitialized(ClientMeta {
        era: Era::Legacy,
        protocol_version: version.to_owned(),
        client_info: None,
        capabilities: Default::default(),
    }))
}
