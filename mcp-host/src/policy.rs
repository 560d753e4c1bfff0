//! What may be called: allow and deny rules per server and tool, and the
//! user's consent before a call that may have side effects.

use std::future::Future;
use std::pin::Pin;

use mcp_toolkit_runtime::protocol::{Tool, ToolAnnotations};

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
    /// effects, as far as the [believed hints](Self::believed_hints) say.
    pub fn consent_reason(&self, server: &str, tool: &Tool) -> Option<String> {
        let believed = self.believed(server, tool);
        let claims_read_only = tool.annotations.as_ref().and_then(|a| a.read_only_hint);
        if believed.read_only_hint == Some(true) {
            None
        } else if believed.destructive_hint == Some(true) {
            Some("it is marked destructive".to_owned())
        } else if claims_read_only == Some(true) {
            Some("its server is untrusted, so its read-only hint is not believed".to_owned())
        } else {
            Some("it is not marked read-only, so it may change things".to_owned())
        }
    }

    /// Whether a call of `tool` may be sent again after the connection
    /// failed while it was out: only a tool the [believed
    /// hints](Self::believed_hints) call read-only or idempotent (never a
    /// write that may have happened).
    pub fn may_retry(&self, server: &str, tool: &Tool) -> bool {
        let believed = self.believed(server, tool);
        believed.read_only_hint == Some(true) || believed.idempotent_hint == Some(true)
    }

    /// Whether `server`'s hints are believed: it is not listed as
    /// `untrusted`.
    pub fn trusts(&self, server: &str) -> bool {
        !self.config.untrusted.iter().any(|s| s == server)
    }

    /// What the host believes of the `hints` that `server` gives a tool:
    /// all of them when it trusts the server. Of an untrusted server's
    /// hints, the claims that a tool is safe (read-only, not destructive,
    /// idempotent, closed-world) are dropped, and those that make a caller
    /// more careful stay: an untrusted server's hints may only tighten.
    /// The host's consent and retries, and the hints the gateway passes on,
    /// all follow these.
    pub fn believed_hints(&self, server: &str, hints: &ToolAnnotations) -> ToolAnnotations {
        let mut hints = hints.clone();
        if !self.trusts(server) {
            hints.read_only_hint = hints.read_only_hint.filter(|&claim| !claim);
            hints.destructive_hint = hints.destructive_hint.filter(|&claim| claim);
            hints.idempotent_hint = hints.idempotent_hint.filter(|&claim| !claim);
            hints.open_world_hint = hints.open_world_hint.filter(|&claim| claim);
        }
        hints
    }

    /// The believed hints of `tool`; none when it has none.
    fn believed(&self, server: &str, tool: &Tool) -> ToolAnnotations {
        tool.annotations
            .as_ref()
            .map(|hints| self.believed_hints(server, hints))
            .unwrap_or_default()
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
    fn an_untrusted_server_cannot_claim_safety() {
        let policy = Policy::new(PolicyConfig {
            untrusted: vec!["shady".into()],
            ..PolicyConfig::default()
        });
        let hints = ToolAnnotations {
            title: Some("Read".into()),
            read_only_hint: Some(true),
            destructive_hint: Some(false),
            idempotent_hint: Some(true),
            open_world_hint: Some(true),
        };
        assert_eq!(policy.believed_hints("fs", &hints), hints);
        let untrusted = policy.believed_hints("shady", &hints);
        assert_eq!(untrusted.read_only_hint, None);
        assert_eq!(untrusted.destructive_hint, None);
        assert_eq!(untrusted.idempotent_hint, None);
        assert_eq!(untrusted.open_world_hint, Some(true));
        assert_eq!(untrusted.title.as_deref(), Some("Read"));

        let careful = ToolAnnotations {
            read_only_hint: Some(false),
            destructive_hint: Some(true),
            idempotent_hint: Some(false),
            open_world_hint: Some(false),
            ..ToolAnnotations::default()
        };
        let untrusted = policy.believed_hints("shady", &careful);
        assert_eq!(untrusted.read_only_hint, Some(false));
        assert_eq!(untrusted.destructive_hint, Some(true));
        assert_eq!(untrusted.idempotent_hint, Some(false));
        assert_eq!(untrusted.open_world_hint, None);
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
