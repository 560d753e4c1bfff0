//! What may be called: allow and deny rules per server and tool, and the
//! user's consent before a call that may have side effects.

use std::future::Future;
use std::pin::Pin;

use mcp_runtime::protocol::Tool;

use crate::config::PolicyConfig;

/// Asks the user before a call with possible side effects. Implemented by
/// the application (a dialog, a terminal prompt, an auto-approver in tests).
pub trait Consent: Send + Sync {
    /// Whether the user allows `request`.
    fn confirm<'a>(
        &'a self,
        request: &'a ConsentRequest,
    ) -> Pin<Box<dyn Future<Output = bool> + Send + 'a>>;
}

/// What the user is asked about.
#[derive(Debug, Clone)]
pub struct ConsentRequest {
    /// The server.
    pub server: String,
    /// The tool.
    pub tool: String,
    /// Why consent is needed.
    pub reason: String,
    /// The arguments, as they will be sent.
    pub arguments: serde_json::Value,
}

/// Consent given to everything (`--yes`).
pub struct AlwaysAllow;

impl Consent for AlwaysAllow {
    fn confirm<'a>(
        &'a self,
        _: &'a ConsentRequest,
    ) -> Pin<Box<dyn Future<Output = bool> + Send + 'a>> {
        Box::pin(async { true })
    }
}

/// Consent refused to everything (no one to ask).
pub struct NeverAllow;

impl Consent for NeverAllow {
    fn confirm<'a>(
        &'a self,
        _: &'a ConsentRequest,
    ) -> Pin<Box<dyn Future<Output = bool> + Send + 'a>> {
        Box::pin(async { false })
    }
}

/// The configured rules.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    config: PolicyConfig,
}

impl Policy {
    /// The rules of `config`.
    pub fn new(config: PolicyConfig) -> Self {
        Policy { config }
    }

    /// Why `server.tool` may not be called, if it may not.
    pub fn refusal(&self, server: &str, tool: &str) -> Option<String> {
        let name = format!("{server}.{tool}");
        if let Some(rule) = self.config.deny.iter().find(|rule| matches(rule, &name)) {
            return Some(format!("denied by the policy rule `{rule}`"));
        }
        let allowed = self.config.allow.is_empty()
            || self.config.allow.iter().any(|rule| matches(rule, &name));
        (!allowed).then(|| "not in the policy's allow list".to_owned())
    }

    /// Why calling `tool` of `server` needs the user's consent, if it does:
    /// a tool that is not read-only, or is destructive, may have side
    /// effects. An untrusted server's `readOnlyHint` is not believed (its
    /// hints may only make things stricter).
    pub fn consent_reason(&self, server: &str, tool: &Tool) -> Option<String> {
        let hints = tool.annotations.as_ref();
        let read_only = hints.and_then(|a| a.read_only_hint).unwrap_or(false);
        let destructive = hints.and_then(|a| a.destructive_hint).unwrap_or(false);
        let trusted = self.trusts(server);
        if destructive && !read_only {
            Some("it is marked destructive".to_owned())
        } else if !read_only {
            Some("it is not marked read-only, so it may change things".to_owned())
        } else if !trusted {
            Some("its server is untrusted, so its read-only hint is not believed".to_owned())
        } else {
            None
        }
    }
}

impl Policy {
    /// Whether a call of `tool` may be sent again after the connection
    /// failed while it was out: only a read-only or idempotent tool of a
    /// trusted server (never a write that may have happened).
    pub fn may_retry(&self, server: &str, tool: &Tool) -> bool {
        let hints = tool.annotations.as_ref();
        let read_only = hints.and_then(|a| a.read_only_hint).unwrap_or(false);
        let idempotent = hints.and_then(|a| a.idempotent_hint).unwrap_or(false);
        self.trusts(server) && (read_only || idempotent)
    }

    /// Whether `server`'s hints are believed: it is not listed as
    /// `untrusted`.
    pub fn trusts(&self, server: &str) -> bool {
        !self.config.untrusted.iter().any(|s| s == server)
    }
}

/// `rule` is `server.tool`, or ends with `*` to match a prefix.
fn matches(rule: &str, name: &str) -> bool {
    match rule.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => rule == name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(read_only: Option<bool>, destructive: Option<bool>) -> Tool {
        serde_json::from_value(serde_json::json!({
            "name": "t", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": read_only, "destructiveHint": destructive}
        }))
        .unwrap()
    }

    #[test]
    fn rules_deny_first_then_allow() {
        let policy = Policy::new(PolicyConfig {
            allow: vec!["fs.read_*".into(), "echo.*".into()],
            deny: vec!["echo.sleep".into()],
            untrusted: vec![],
        });
        assert_eq!(policy.refusal("fs", "read_file"), None);
        assert_eq!(policy.refusal("echo", "add"), None);
        assert!(
            policy
                .refusal("echo", "sleep")
                .unwrap()
                .contains("echo.sleep")
        );
        assert!(
            policy
                .refusal("fs", "write_file")
                .unwrap()
                .contains("allow list")
        );
    }

    #[test]
    fn consent_follows_the_hints_and_only_tightens_for_untrusted_servers() {
        let policy = Policy::new(PolicyConfig {
            untrusted: vec!["shady".into()],
            ..PolicyConfig::default()
        });
        assert!(
            policy
                .consent_reason("fs", &tool(Some(true), None))
                .is_none()
        );
        assert!(policy.consent_reason("fs", &tool(None, None)).is_some());
        assert!(
            policy
                .consent_reason("fs", &tool(Some(false), Some(true)))
                .is_some()
        );
        assert!(
            policy
                .consent_reason("shady", &tool(Some(true), None))
                .is_some()
        );
    }
}
