//! What a client keeps of its authorization with each MCP server between
//! requests and, with a file ([`FileTokenStore`](super::FileTokenStore)),
//! between runs: the token, and for the issuer that issued it what a
//! refresh needs without the user (the issuer's metadata, the resource
//! indicator, and the client's registration when it registered itself).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::lifetime::unix_now;
use crate::oauth::metadata::AuthorizationServerMetadata;
use crate::redact::RedactedUrl;
use crate::sync::lock;

/// How often a client waiting for a store's lock (to refresh, or to change
/// a file another process holds) tries again.
pub(super) const LOCK_POLL: Duration = Duration::from_millis(10);

/// A token for one resource, as the authorization server issued it. Only
/// the client makes them; a store keeps them as they are (serde).
#[derive(Clone, Serialize, Deserialize, PartialEq)]
#[non_exhaustive]
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
    /// The key a DPoP-bound token (RFC 9449) is bound to; `None` for a
    /// bearer token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dpop_key: Option<StoredDpopKey>,
}

/// A client's DPoP private key, kept with the token bound to it. `Debug`
/// shows the algorithm only.
#[derive(Clone, Serialize, Deserialize, PartialEq)]
#[non_exhaustive]
pub struct StoredDpopKey {
    /// The JWS algorithm of its proofs (`ES256`).
    pub algorithm: String,
    /// The private key, PKCS#8 DER in standard Base64.
    pub pkcs8: String,
}

impl std::fmt::Debug for StoredDpopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredDpopKey")
            .field("algorithm", &self.algorithm)
            .finish_non_exhaustive()
    }
}

/// How long before its expiry a token is renewed, at most: a request sent
/// with it must still find it valid.
const RENEW_EARLY_SECS: u64 = 30;

impl StoredToken {
    /// Whether the access token has expired, or will within 30 s (within
    /// half its lifetime, for a token that lives a minute or less, so that
    /// it is renewed once per lifetime, not on every use).
    pub fn is_expired(&self) -> bool {
        let now = unix_now();
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
            .field("dpop_bound", &self.dpop_key.is_some())
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
#[derive(Clone, Serialize, Deserialize, PartialEq)]
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

/// Its URLs as messages show them ([`RedactedUrl`]).
impl std::fmt::Debug for StoredIssuer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let token_endpoint = self.metadata.token_endpoint.as_deref();
        f.debug_struct("StoredIssuer")
            .field("issuer", &RedactedUrl::new(&self.metadata.issuer))
            .field("token_endpoint", &token_endpoint.map(RedactedUrl::new))
            .field("resource", &RedactedUrl::new(&self.resource))
            .field("registration", &self.registration)
            .finish_non_exhaustive()
    }
}

/// A server's token with the record of one issuer, as
/// [`TokenStore::update`] changes them: together, so that no client ever
/// reads a token with a registration it was not issued to.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct StoredEntry {
    /// The server's token (`None`: none, or forgotten).
    pub token: Option<StoredToken>,
    /// What is known of the issuer (`None`: nothing, or forgotten).
    pub issuer: Option<StoredIssuer>,
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
/// token that a later run cannot refresh (it authorizes again). A store
/// that several clients share changes a server's token and issuer record
/// in one step: it implements [`update`](TokenStore::update) under the
/// same lock as its other changes.
///
/// Every method may block (a [`FileTokenStore`](super::FileTokenStore)
/// waits up to a minute for another process's lock): the client calls
/// them on tokio's blocking threads (`spawn_blocking`), never on the
/// threads that run its futures.
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
    /// Applies `change` to `server`'s token and its record of `issuer` as
    /// one change: read, changed and written back with no other change in
    /// between. The default reads and writes them through the methods
    /// above, one after the other, which is one step only for a store that
    /// one client uses.
    fn update(&self, server: &str, issuer: &str, change: &mut dyn FnMut(&mut StoredEntry)) {
        let before = StoredEntry {
            token: self.load(server),
            issuer: self.load_issuer(server, issuer),
        };
        let mut after = before.clone();
        change(&mut after);
        if after.issuer != before.issuer {
            self.save_issuer(server, issuer, after.issuer.as_ref());
        }
        if after.token != before.token {
            self.save(server, after.token.as_ref());
        }
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

    /// [`TokenStore::update`] on these entries.
    pub(super) fn update(
        &mut self,
        server: &str,
        issuer: &str,
        change: &mut dyn FnMut(&mut StoredEntry),
    ) {
        self.change(server, |entry| {
            let mut view = StoredEntry {
                token: entry.token.take(),
                issuer: entry.issuers.remove(issuer),
            };
            change(&mut view);
            entry.token = view.token;
            if let Some(record) = view.issuer {
                entry.issuers.insert(issuer.to_owned(), record);
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

    fn update(&self, server: &str, issuer: &str, change: &mut dyn FnMut(&mut StoredEntry)) {
        lock(&self.entries).update(server, issuer, change);
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
        let now = unix_now();
        let issued = now - issued_ago;
        StoredToken {
            access_token: "a".into(),
            refresh_token: None,
            expires_at: lifetime.map(|l| issued + l),
            issued_at: known_issue.then_some(issued),
            scopes: vec![],
            issuer: "https://as".into(),
            dpop_key: None,
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

    /// A store with the required methods and the issuer's only.
    #[derive(Default)]
    struct Plain(MemoryTokenStore);

    impl TokenStore for Plain {
        fn load(&self, server: &str) -> Option<StoredToken> {
            self.0.load(server)
        }
        fn save(&self, server: &str, token: Option<&StoredToken>) {
            self.0.save(server, token);
        }
        fn load_issuer(&self, server: &str, issuer: &str) -> Option<StoredIssuer> {
            self.0.load_issuer(server, issuer)
        }
        fn save_issuer(&self, server: &str, issuer: &str, record: Option<&StoredIssuer>) {
            self.0.save_issuer(server, issuer, record);
        }
    }

    #[test]
    fn the_default_update_reads_and_writes_through_the_other_methods() {
        let metadata: AuthorizationServerMetadata =
            serde_json::from_value(serde_json::json!({"issuer": "https://as"})).unwrap();
        let record = StoredIssuer::new(metadata, "https://rs/mcp", None);
        let token = expiring(0, None, true);
        for store in [
            Box::new(Plain::default()) as Box<dyn TokenStore>,
            Box::new(MemoryTokenStore::default()),
        ] {
            store.update("https://rs/mcp", "https://as", &mut |entry| {
                assert_eq!(entry, &StoredEntry::default());
                entry.token = Some(token.clone());
                entry.issuer = Some(record.clone());
            });
            assert_eq!(store.load("https://rs/mcp"), Some(token.clone()));
            assert_eq!(
                store.load_issuer("https://rs/mcp", "https://as"),
                Some(record.clone())
            );
            store.update("https://rs/mcp", "https://as", &mut |entry| {
                assert_eq!(entry.token.as_ref(), Some(&token));
                entry.token = None;
            });
            assert_eq!(store.load("https://rs/mcp"), None);
            assert!(store.load_issuer("https://rs/mcp", "https://as").is_some());
        }
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
            dpop_key: None,
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
