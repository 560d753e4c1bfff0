//! Protocol revision identifiers.

/// The newest protocol revision this crate speaks (the stateless, modern era).
pub const LATEST_PROTOCOL_VERSION: &str = "2026-07-28";

/// Earlier protocol revisions that use the `initialize` handshake (legacy era), oldest first.
pub const LEGACY_PROTOCOL_VERSIONS: [&str; 4] =
    ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// Whether `version` is one of the [`LEGACY_PROTOCOL_VERSIONS`].
pub fn is_legacy_protocol_version(version: &str) -> bool {
    LEGACY_PROTOCOL_VERSIONS.contains(&version)
}
