//! What a client keeps of its authorization with each MCP server between
//! requests and, with a file ([`FileTokenStore`](super::FileTokenStore)),
//! between runs: the token, and for the issuer that issued it what a
//! refresh needs without the user (the issuer's metadata, the resource
//! indicator, and the client's registration when it registered itself).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::oauth::metadata::AuthorizationServerMetadata;
use crate::sync::lock;

/// A token for one resource, as the authorization server issued it.
#[derive(Clone, Serialize, Deserialize, PartialEq)]
pub struct StoredToken {
    /// The access token.
    pub access_token: String,
    /// The refresh token, when one was issued.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// When the access token expires, in seconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
    /// When it was issued, in seconds since the Unix epoch (unknown in
    /// files written before it was kept): how early a short-lived token is
    /// renewed depends on its lifetime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issued_at: Option<u64>,
    /// The scopes asked for (or granted, when the server said).
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The issuer that issued it.
    pub issuer: String,
}

/// How long before its expiry a token is renewed, at most: a request sent
/// with it must still find it valid.
const RENEW_EARLY_SECS: u64 = 30;

impl StoredToken {
    /// Whether the access token has expired, or will within 30 s (within
    /// half its lifetime, for a token that lives a minute or less, so that
    /// it is renewed once per lifetime, not on every use).
    pub fn is_expired(&self) -> bool {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.expires_at.is_some_and(|at| {
            let lifetime = self
                .issued_at
                .map_or(u64::MAX, |issued| at.saturating_sub(issued));
            at.saturating_sub(RENEW_EARLY_SECS.min(lifetime / 2)) <= now
        })
    }
}

impl std::fmt::Debug for StoredToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredToken")
            .field("expires_at", &self.expires_at)
            .field("scopes", &self.scopes)
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

/// The identity a client registered for itself at an authorization server
/// (Dynamic Client Registration, or a Client ID Metadata Document).
/// Credentials from the client's configuration are never stored.
#[derive(Clone, Serialize, Deserialize, PartialEq)]
#[non_exhaustive]
pub struct StoredRegistration {
    /// The `client_id` the server assigned (or the document's URL).
    pub client_id: String,
    /// The `client_secret`, for a confidential client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// How the client authenticates at the token endpoint
    /// (`client_secret_basic`, `client_secret_post`, `none`).
    pub token_endpoint_auth_method: String,
    /// The redirect URI it was registered with, when it registered one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_uri: Option<String>,
}

impl std::fmt::Debug for StoredRegistration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredRegistration")
            .field("client_id", &self.client_id)
            .field(
                "token_endpoint_auth_method",
                &self.token_endpoint_auth_method,
            )
            .field("redirect_uri", &self.redirect_uri)
            .finish_non_exhaustive()
    }
}

/// What a client knows of one authorization server, for one MCP server:
/// enough to refresh a token it issued, in a later run and without the
/// user.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[non_exhaustive]
pub struct StoredIssuer {
    /// The server's metadata as discovered (its token endpoint above all).
    pub metadata: AuthorizationServerMetadata,
    /// The resource indicator (RFC 8707) tokens are asked for.
    pub resource: String,
    /// The client's own registration there, when it registered itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration: Option<StoredRegistration>,
}

impl StoredIssuer {
    /// A record of `metadata` and `resource`, with the client's
    /// `registration` when it registered itself.
    pub fn new(
        metadata: AuthorizationServerMetadata,
        resource: impl Into<String>,
        registration: Option<StoredRegistration>,
    ) -> Self {
        StoredIssuer {
            metadata,
            resource: resource.into(),
            registration,
        }
    }
}

impl StoredRegistration {
    /// A registration as `client_id`, authenticating with `method`.
    pub fn new(
        client_id: impl Into<String>,
        client_secret: Option<String>,
        method: impl Into<String>,
        redirect_uri: Option<String>,
    ) -> Self {
        StoredRegistration {
            client_id: client_id.into(),
            client_secret,
            token_endpoint_auth_method: method.into(),
            redirect_uri,
        }
    }
}

/// The right to refresh a server's token, from
/// [`TokenStore::try_lock`]; given back when dropped.
pub struct StoreLock {
    _release: Box<dyn Send>,
}

impl StoreLock {
    /// A lock given back when `release` is dropped.
    pub fn new(release: impl Send + 'static) -> Self {
        StoreLock {
            _release: Box::new(release),
        }
    }
}

/// Keeps, per MCP server (its canonical URL), the token and what
/// refreshing it needs. A store shared by several clients (processes
/// sharing a file) also hands out the right to refresh, so that a refresh
/// token is used once: the holder reads the token again, refreshes it only
/// if nobody did meanwhile, and saves the new one before giving the right
/// back.
///
/// Only `load` and `save` are required; a store without the rest keeps a
/// token that a later run cannot refresh (it authorizes again).
pub trait TokenStore: Send + Sync + 'static {
    /// The token for `server`, as last saved by anyone.
    fn load(&self, server: &str) -> Option<StoredToken>;
    /// Keeps `token` for `server`, or forgets it (`None`).
    fn save(&self, server: &str, token: Option<&StoredToken>);
    /// What is known of `issuer` for `server`.
    fn load_issuer(&self, server: &str, issuer: &str) -> Option<StoredIssuer> {
        let _ = (server, issuer);
        None
    }
    /// Keeps `record` of `issuer` for `server`, or forgets it (`None`).
    fn save_issuer(&self, server: &str, issuer: &str, record: Option<&StoredIssuer>) {
        let _ = (server, issuer, record);
    }
    /// The right to refresh `server`'s token, or `None` while another
    /// client holds it (callers wait and try again). Must not block. The
    /// default grants it always, for a store only one client uses.
    fn try_lock(&self, server: &str) -> std::io::Result<Option<StoreLock>> {
        let _ = server;
        Ok(Some(StoreLock::new(())))
    }
}

/// All a store keeps for one MCP server.
#[derive(Clone, Default, Serialize, Deserialize, PartialEq, Debug)]
pub(super) struct Entry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) token: Option<StoredToken>,
    /// By issuer.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) issuers: BTreeMap<String, StoredIssuer>,
}

/// Every server's entry; empty entries are dropped.
#[derive(Clone, Default, PartialEq, Debug)]
pub(super) struct Entries(pub(super) BTreeMap<String, Entry>);

impl Entries {
    pub(super) fn token(&self, server: &str) -> Option<StoredToken> {
        self.0.get(server)?.token.clone()
    }

    pub(super) fn issuer(&self, server: &str, issuer: &str) -> Option<StoredIssuer> {
        self.0.get(server)?.issuers.get(issuer).cloned()
    }

    pub(super) fn set_token(&mut self, server: &str, token: Option<&StoredToken>) {
        self.change(server, |entry| entry.token = token.cloned());
    }

    pub(super) fn set_issuer(&mut self, server: &str, issuer: &str, record: Option<&StoredIssuer>) {
        self.change(server, |entry| match record {
            Some(record) => {
                entry.issuers.insert(issuer.to_owned(), record.clone());
            }
            None => {
                entry.issuers.remove(issuer);
            }
        });
    }

    fn change(&mut self, server: &str, change: impl FnOnce(&mut Entry)) {
        let entry = self.0.entry(server.to_owned()).or_default();
        change(entry);
        if entry.token.is_none() && entry.issuers.is_empty() {
            self.0.remove(server);
        }
    }
}

/// Tokens in memory, for the life of the process (the default). Its
/// clients in this process refresh one at a time.
#[derive(Default)]
pub struct MemoryTokenStore {
    entries: Mutex<Entries>,
    refreshing: Mutex<HashMap<String, Arc<AtomicBool>>>,
}

impl TokenStore for MemoryTokenStore {
    fn load(&self, server: &str) -> Option<StoredToken> {
        lock(&self.entries).token(server)
    }

    fn save(&self, server: &str, token: Option<&StoredToken>) {
        lock(&self.entries).set_token(server, token);
    }

    fn load_issuer(&self, server: &str, issuer: &str) -> Option<StoredIssuer> {
        lock(&self.entries).issuer(server, issuer)
    }

    fn save_issuer(&self, server: &str, issuer: &str, record: Option<&StoredIssuer>) {
        lock(&self.entries).set_issuer(server, issuer, record);
    }

    fn try_lock(&self, server: &str) -> std::io::Result<Option<StoreLock>> {
        let flag = lock(&self.refreshing)
            .entry(server.to_owned())
            .or_default()
            .clone();
        if flag.swap(true, Ordering::AcqRel) {
            return Ok(None);
        }
        Ok(Some(StoreLock::new(Lowered(flag))))
    }
}

/// Lowers the flag it holds when dropped.
struct Lowered(Arc<AtomicBool>);

impl Drop for Lowered {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expiring(issued_ago: u64, lifetime: Option<u64>, known_issue: bool) -> StoredToken {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let issued = now - issued_ago;
        StoredToken {
            access_token: "a".into(),
            refresh_token: None,
            expires_at: lifetime.map(|l| issued + l),
            issued_at: known_issue.then_some(issued),
            scopes: vec![],
            issuer: "https://as".into(),
        }
    }

    #[test]
    fn a_token_is_renewed_30_s_early_or_at_half_its_lifetime_when_shorter() {
        assert!(!expiring(0, Some(3600), true).is_expired());
        assert!(!expiring(3560, Some(3600), true).is_expired());
        assert!(expiring(3571, Some(3600), true).is_expired());
        // 10 s: renewed after 5, not at once.
        assert!(!expiring(0, Some(10), true).is_expired());
        assert!(!expiring(4, Some(10), true).is_expired());
        assert!(expiring(5, Some(10), true).is_expired());
        // Issued when unknown (an older file): 30 s early, as before.
        assert!(expiring(0, Some(10), false).is_expired());
        assert!(!expiring(0, None, true).is_expired());
    }

    #[test]
    fn a_memory_store_keeps_tokens_and_issuers_and_lets_one_refresh_at_a_time() {
        let store = MemoryTokenStore::default();
        let token = StoredToken {
            access_token: "a".into(),
            refresh_token: Some("r".into()),
            expires_at: Some(1),
            issued_at: None,
            scopes: vec![],
            issuer: "https://as".into(),
        };
        store.save("https://rs/mcp", Some(&token));
        let metadata: AuthorizationServerMetadata =
            serde_json::from_value(serde_json::json!({"issuer": "https://as"})).unwrap();
        let record = StoredIssuer::new(metadata, "https://rs/mcp", None);
        store.save_issuer("https://rs/mcp", "https://as", Some(&record));
        assert_eq!(store.load("https://rs/mcp"), Some(token));
        assert_eq!(
            store.load_issuer("https://rs/mcp", "https://as"),
            Some(record)
        );

        let held = store.try_lock("https://rs/mcp").unwrap().expect("free");
        assert!(store.try_lock("https://rs/mcp").unwrap().is_none());
        assert!(store.try_lock("https://other/mcp").unwrap().is_some());
        drop(held);
        assert!(store.try_lock("https://rs/mcp").unwrap().is_some());

        store.save("https://rs/mcp", None);
        store.save_issuer("https://rs/mcp", "https://as", None);
        assert!(lock(&store.entries).0.is_empty(), "empty entries go");
    }
}
