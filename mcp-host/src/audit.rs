//! The audit trail: one record per call attempt, to `tracing` and to any
//! sink the application adds.

use std::time::Duration;

/// What was decided about a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Sent to the server.
    Allowed,
    /// Refused by the policy.
    Denied,
    /// The user did not consent.
    NotConfirmed,
    /// The arguments did not satisfy the input schema.
    Invalid,
}

/// One call, as the audit trail keeps it. The arguments are kept as a
/// keyed digest only: they may hold secrets (see [`argument_digest`]).
#[derive(Debug, Clone)]
pub struct AuditRecord {
    /// The server.
    pub server: String,
    /// The tool.
    pub tool: String,
    /// HMAC-SHA256 of the arguments' JSON under the host's [`AuditKey`],
    /// hex: equal for equal arguments within one run of the host, and no
    /// use to anyone guessing the arguments without the key.
    pub argument_digest: String,
    /// What was decided.
    pub decision: Decision,
    /// How it ended: `ok`, `tool error`, `timeout`, or the failure.
    pub outcome: String,
    /// How long it took.
    pub duration: Duration,
}

/// Receives every audit record.
pub trait AuditSink: Send + Sync {
    /// Keeps `record`.
    fn record(&self, record: &AuditRecord);
}

/// The secret that keys the argument digests of one host. By default
/// ([`HostOptions::audit_key`](crate::HostOptions::audit_key) unset) 256
/// bits from the OS's random source, drawn when the host starts and kept in
/// its memory only (never written, never logged): digests can be compared
/// within one run, not across runs. An application that wants them
/// comparable across runs keeps a key of its own as secret as the records
/// deserve ([`AuditKey::from_bytes`]). Either way an unkeyed hash's weakness
/// is gone: a short secret in an argument (a PIN, a password) cannot be
/// confirmed by hashing guesses without the key.
#[derive(Clone)]
pub struct AuditKey([u8; 32]);

impl AuditKey {
    /// A fresh key.
    pub fn random() -> Self {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).expect("the OS random source is available");
        AuditKey(key)
    }

    /// A key the application keeps (32 random bytes, secret).
    pub fn from_bytes(key: [u8; 32]) -> Self {
        AuditKey(key)
    }
}

/// Never the key itself.
impl std::fmt::Debug for AuditKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AuditKey(..)")
    }
}

/// The digest of `arguments` in audit records: HMAC-SHA256 of their JSON
/// under `key`, hex. The same arguments give the same digest under one
/// key and unrelated ones under another.
pub fn argument_digest(key: &AuditKey, arguments: &serde_json::Value) -> String {
    hex::encode(hmac_sha256::HMAC::mac(
        arguments.to_string().as_bytes(),
        key.0,
    ))
}

/// Writes `record` to `tracing` (target `mcp_toolkit_host::audit`).
pub(crate) fn trace(record: &AuditRecord) {
    tracing::info!(
        target: "mcp_toolkit_host::audit",
        server = %record.server,
        tool = %record.tool,
        argument_digest = %record.argument_digest,
        decision = ?record.decision,
        outcome = %record.outcome,
        duration_ms = record.duration.as_millis() as u64,
        "tool call"
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{AuditKey, argument_digest};

    #[test]
    fn digests_are_keyed_by_the_host() {
        let arguments = json!({"pin": "1234"});
        let (one, other) = (AuditKey::random(), AuditKey::random());
        let digest = argument_digest(&one, &arguments);
        assert_eq!(digest, argument_digest(&one, &arguments));
        assert_ne!(digest, argument_digest(&other, &arguments));
        assert_ne!(digest, argument_digest(&one, &json!({"pin": "1235"})));
        let unkeyed = hex::encode(hmac_sha256::Hash::hash(arguments.to_string().as_bytes()));
        assert_ne!(digest, unkeyed, "a guess hashed without the key matches");
        assert_eq!(digest.len(), 64);
        assert_eq!(format!("{one:?}"), "AuditKey(..)");
    }
}
