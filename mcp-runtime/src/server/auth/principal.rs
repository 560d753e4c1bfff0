//! Who a verified access token speaks for.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

/// The verified identity behind a request's access token: what a
/// [`TokenVerifier`](super::TokenVerifier) learned from it. Handlers take
/// it as a parameter (`principal: Option<Principal>`) or read it from
/// [`RequestContext::principal`](crate::server::RequestContext::principal).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Principal {
    /// The subject (`sub`): the user, or the client acting for itself.
    pub subject: Option<String>,
    /// The OAuth client the token was issued to (`client_id`, or `azp`).
    pub client_id: Option<String>,
    /// The issuer (`iss`).
    pub issuer: Option<String>,
    /// The granted scopes.
    pub scopes: BTreeSet<String>,
    /// When the token expires, in seconds since the Unix epoch.
    pub expires_at: Option<u64>,
    /// Every claim of the token (or of the introspection answer).
    pub claims: Map<String, Value>,
}

impl Principal {
    /// Reads the standard members of JWT claims or an introspection answer
    /// (`sub`, `client_id`/`azp`, `iss`, `scope` or `scp`, `exp`).
    pub fn from_claims(claims: Map<String, Value>) -> Self {
        let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
        // `scope` is space-separated; `scp` is a list or space-separated.
        let granted: Vec<&str> = match (claims.get("scope"), claims.get("scp")) {
            (Some(Value::String(scope)), _) | (_, Some(Value::String(scope))) => {
                scope.split(' ').collect()
            }
            (_, Some(Value::Array(scopes))) => scopes.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        // Inserted one by one: collecting into a set sorts a vector first,
        // one more sort compiled for nothing.
        let mut scopes = BTreeSet::new();
        for scope in granted.into_iter().filter(|scope| !scope.is_empty()) {
            scopes.insert(scope.to_owned());
        }
        Principal {
            subject: text("sub"),
            client_id: text("client_id").or_else(|| text("azp")),
            issuer: text("iss"),
            scopes,
            expires_at: claims.get("exp").and_then(Value::as_u64),
            claims,
        }
    }

    /// Whether every one of `scopes` was granted.
    pub fn has_scopes<'a>(&self, scopes: impl IntoIterator<Item = &'a str>) -> bool {
        scopes.into_iter().all(|scope| self.scopes.contains(scope))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scope_strings_and_scp_arrays() {
        let claims = serde_json::json!({
            "sub": "alice", "azp": "app", "iss": "https://as", "exp": 99,
            "scope": "notes:read  notes:write"
        });
        let principal = Principal::from_claims(claims.as_object().unwrap().clone());
        assert_eq!(principal.subject.as_deref(), Some("alice"));
        assert_eq!(principal.client_id.as_deref(), Some("app"));
        assert!(principal.has_scopes(["notes:read", "notes:write"]));
        assert!(!principal.has_scopes(["admin"]));
        let scp = serde_json::json!({"scp": ["a", "b", 3]});
        let principal = Principal::from_claims(scp.as_object().unwrap().clone());
        assert_eq!(principal.scopes.len(), 2);
    }
}
