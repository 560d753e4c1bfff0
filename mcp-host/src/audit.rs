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
/// digest only: they may hold secrets.
#[derive(Debug, Clone)]
pub struct AuditRecord {
    /// The server.
    pub server: String,
    /// The tool.
    pub tool: String,
    /// SHA-256 of the arguments' JSON, hex.
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

/// The digest of `arguments` used in audit records.
pub fn argument_digest(arguments: &serde_json::Value) -> String {
    hex::encode(hmac_sha256::Hash::hash(arguments.to_string().as_bytes()))
}

/// Writes `record` to `tracing` (target `mcp_host::audit`).
pub(crate) fn trace(record: &AuditRecord) {
    tracing::info!(
        target: "mcp_host::audit",
        server = %record.server,
        tool = %record.tool,
        argument_digest = %record.argument_digest,
        decision = ?record.decision,
        outcome = %record.outcome,
        duration_ms = record.duration.as_millis() as u64,
        "tool call"
    );
}
