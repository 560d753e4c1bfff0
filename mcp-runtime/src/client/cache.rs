//! The client's cache of list and read results (`tools/list`,
//! `prompts/list`, `resources/list`, `resources/templates/list`, every page
//! of each, and `resources/read` of one URI): asked again while the result
//! is fresh, the client answers from memory instead of the server.
//!
//! The rules, in one place:
//! - A result is kept only for as long as the server said (`ttlMs`,
//!   2026-07-28, bounded by [`bounded`]); over several pages, the shortest,
//!   and only if every page said. `0` or no `ttlMs` keeps nothing, and
//!   nothing is kept from a server that speaks a legacy version (where
//!   `ttlMs` is no part of the protocol).
//! - `cacheScope: public` results of an HTTP server are served to every
//!   client sharing the cache that speaks the same protocol version, with
//!   the same capabilities, to the same URL. Every other result (`private`,
//!   no scope, or from a server with no URL) is served only to the
//!   connection that fetched it: the one authorization context a client
//!   can vouch for (a token may sit in any header, and OAuth changes it).
//! - A notification that makes results stale (a list change, a resource
//!   update, or notifications missed by falling behind) drops them, for the
//!   connection that received it and for the public entries of its server.
//!   Notifications are read before every look-up and before every store, so
//!   a result fetched while its invalidation arrived is not kept. (A public
//!   result one client fetches while another client of the server receives
//!   the invalidation may be kept: it is then as stale as a result fetched
//!   just before the change, which `ttlMs` bounds.)
//! - A cache holds at most its capacity of entries (1,024 by default); each
//!   entry is one result the client already accepted (a list of at most
//!   1,000 pages).

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::de::DeserializeOwned;
use tokio::sync::broadcast::{self, error::TryRecvError};
use tokio::time::Instant;

use super::link::Link;
use super::{Client, ClientError, Inner};
use crate::jsonrpc::Notification;
use crate::lifetime::{bounded, millis};
use crate::protocol::methods::{
    NOTIFICATION_PROMPTS_LIST_CHANGED, NOTIFICATION_RESOURCES_LIST_CHANGED,
    NOTIFICATION_RESOURCES_UPDATED, NOTIFICATION_TOOLS_LIST_CHANGED,
};
use crate::protocol::{
    CacheScope, ClientCapabilities, Era, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, Method, Paged, ReadResourceResult,
};
use crate::redact::RedactedUrl;
use crate::sync::lock;

/// The most notifications read in one catch-up; past it, everything the
/// connection cached is dropped (a server announcing faster than the client
/// reads cannot keep a look-up waiting).
const MAX_CATCH_UP: usize = 1024;

/// Whether, and where, a client keeps list and read results for as long
/// as the server allows ([`ConnectOptions::cache`](super::ConnectOptions::cache)).
#[derive(Debug, Clone, Default)]
pub enum Caching {
    /// A cache of the client's own, shared by its clones (the default).
    #[default]
    Own,
    /// A cache shared with other clients: a `public` result of an HTTP
    /// server fetched by one is served to the others; a `private` one stays
    /// with the client that fetched it.
    Shared(Arc<ClientCache>),
    /// No cache: every call is a request.
    Off,
}

/// Results kept for as long as their servers allow; see [`Caching`]. Cheap
/// to share between clients (`Arc<ClientCache>`).
pub struct ClientCache {
    /// The most entries kept at once.
    capacity: usize,
    entries: Mutex<HashMap<Key, Entry>>,
}

impl ClientCache {
    /// The capacity of a [`ClientCache::default`].
    pub const DEFAULT_CAPACITY: usize = 1024;

    /// A cache of at most `capacity` entries (each one list or one read
    /// result). When it is full, the expired entries go first, then the
    /// one that expires soonest. A capacity of 0 keeps nothing.
    pub fn new(capacity: usize) -> Self {
        ClientCache {
            capacity,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// How many entries it holds now, expired ones included until they are
    /// found expired.
    pub fn len(&self) -> usize {
        lock(&self.entries).len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        lock(&self.entries).clear();
    }

    fn insert(&self, key: Key, entry: Entry) {
        if self.capacity == 0 {
            return;
        }
        let mut entries = lock(&self.entries);
        if entries.len() >= self.capacity && !entries.contains_key(&key) {
            let now = Instant::now();
            entries.retain(|_, entry| entry.expires > now);
            if entries.len() >= self.capacity {
                let soonest = entries
                    .iter()
                    .min_by_key(|(_, entry)| entry.expires)
                    .map(|(key, _)| key.clone());
                if let Some(soonest) = soonest {
                    entries.remove(&soonest);
                }
            }
        }
        entries.insert(key, entry);
    }

    /// Drops what `owners` cached that `stale` covers.
    fn drop_stale(&self, owners: &[Owner], stale: &Stale) {
        lock(&self.entries)
            .retain(|key, _| !(owners.contains(&key.owner) && stale.covers(&key.what)));
    }
}

impl Default for ClientCache {
    fn default() -> Self {
        ClientCache::new(ClientCache::DEFAULT_CAPACITY)
    }
}

impl fmt::Debug for ClientCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientCache")
            .field("capacity", &self.capacity)
            .field("len", &self.len())
            .finish()
    }
}

/// What a cached result answers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum What {
    /// Every page of a list method.
    List(Method),
    /// `resources/read` of this URI.
    Read(String),
}

/// Whom an entry may be served to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Owner {
    /// The connection that fetched it, and its clones.
    Connection(u64),
    /// Every connection to this server, with these terms.
    Endpoint(Arc<Endpoint>),
}

/// A server as several clients see it alike: its URL, and what they
/// agreed with it (a server may answer differently per version or per
/// client capabilities).
#[derive(PartialEq, Eq, Hash)]
pub(crate) struct Endpoint {
    url: String,
    protocol_version: String,
    /// The client capabilities, serialized.
    capabilities: String,
}

/// The URL as `RedactedUrl` shows it: a query may carry a key.
impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Endpoint")
            .field("url", &format_args!("{}", RedactedUrl::new(&self.url)))
            .field("protocol_version", &self.protocol_version)
            .finish_non_exhaustive()
    }
}

impl Endpoint {
    /// The server at `url`, as a client that agreed on `protocol_version`
    /// and declared `capabilities` sees it.
    fn of(url: &hyper::Uri, protocol_version: &str, capabilities: &ClientCapabilities) -> Endpoint {
        Endpoint {
            url: url.to_string(),
            protocol_version: protocol_version.to_owned(),
            capabilities: serde_json::to_string(capabilities).unwrap_or_default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    owner: Owner,
    what: What,
}

struct Entry {
    value: Arc<dyn Any + Send + Sync>,
    expires: Instant,
}

/// What a notification makes stale.
#[derive(Debug, PartialEq)]
enum Stale {
    Tools,
    Prompts,
    /// Resource and template lists, and every read.
    Resources,
    Read(String),
    Everything,
}

impl Stale {
    fn of(notification: &Notification) -> Option<Stale> {
        match notification.method.as_str() {
            NOTIFICATION_TOOLS_LIST_CHANGED => Some(Stale::Tools),
            NOTIFICATION_PROMPTS_LIST_CHANGED => Some(Stale::Prompts),
            NOTIFICATION_RESOURCES_LIST_CHANGED => Some(Stale::Resources),
            NOTIFICATION_RESOURCES_UPDATED => {
                let uri = notification.params.as_ref().and_then(|p| p.get("uri"));
                // An update that does not say of what may be of anything.
                Some(match uri.and_then(|uri| uri.as_str()) {
                    Some(uri) => Stale::Read(uri.to_owned()),
                    None => Stale::Resources,
                })
            }
            _ => None,
        }
    }

    fn covers(&self, what: &What) -> bool {
        match (self, what) {
            (Stale::Everything, _) => true,
            (Stale::Tools, What::List(method)) => *method == Method::ToolsList,
            (Stale::Prompts, What::List(method)) => *method == Method::PromptsList,
            (Stale::Resources, What::List(method)) => {
                matches!(method, Method::ResourcesList | Method::TemplatesList)
            }
            (Stale::Resources, What::Read(_)) => true,
            (Stale::Read(uri), What::Read(read)) => uri == read,
            _ => false,
        }
    }
}

/// How long and by whom a result may be cached, as its server said.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Lifetime {
    /// `ttlMs`, bounded; none when the server did not say.
    pub(crate) ttl: Option<Duration>,
    /// `cacheScope`, when the server said.
    pub(crate) scope: Option<CacheScope>,
}

impl Lifetime {
    fn of(ttl_ms: Option<u64>, scope: Option<CacheScope>) -> Lifetime {
        Lifetime {
            ttl: ttl_ms.map(|ms| bounded(Duration::from_millis(ms))),
            scope,
        }
    }

    /// The lifetime of a result made of pages: the shortest of theirs (none
    /// if a page did not say), and the narrowest scope (none if a page did
    /// not say and none said `private`).
    fn of_pages(pages: impl IntoIterator<Item = Lifetime>) -> Lifetime {
        pages
            .into_iter()
            .reduce(|all, page| Lifetime {
                ttl: all.ttl.zip(page.ttl).map(|(a, b)| a.min(b)),
                scope: match (all.scope, page.scope) {
                    (Some(CacheScope::Private), _) | (_, Some(CacheScope::Private)) => {
                        Some(CacheScope::Private)
                    }
                    (Some(CacheScope::Public), Some(CacheScope::Public)) => {
                        Some(CacheScope::Public)
                    }
                    _ => None,
                },
            })
            .unwrap_or_default()
    }

    /// How long to keep the result and for whom: a result with no scope is
    /// taken for private.
    fn keep(&self) -> Option<(Duration, CacheScope)> {
        let ttl = self.ttl.filter(|ttl| !ttl.is_zero())?;
        Some((ttl, self.scope.unwrap_or(CacheScope::Private)))
    }
}

/// A result that says how long it may be cached.
pub(crate) trait Hinted {
    /// Its `ttlMs` and `cacheScope`.
    fn lifetime(&self) -> Lifetime;
}

macro_rules! hinted {
    ($($result:ty),*) => {$(
        impl Hinted for $result {
            fn lifetime(&self) -> Lifetime {
                Lifetime::of(self.ttl_ms, self.cache_scope)
            }
        }
    )*};
}

hinted!(
    ListToolsResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ReadResourceResult
);

/// A value the cache may hold.
pub(crate) trait Cached: Clone + Send + Sync + 'static {
    /// The value as served from the cache, `left` before it expires: a
    /// lifetime it reports counts from now.
    fn served(self, left: Duration) -> Self;
}

/// Every item of every page of a list, with its lifetime.
#[derive(Debug, Clone)]
pub(crate) struct Listed<T> {
    pub(crate) items: Vec<T>,
    pub(crate) lifetime: Lifetime,
}

impl<T: Clone + Send + Sync + 'static> Cached for Listed<T> {
    fn served(mut self, left: Duration) -> Self {
        self.lifetime.ttl = Some(left);
        self
    }
}

impl Cached for ReadResourceResult {
    fn served(mut self, left: Duration) -> Self {
        self.ttl_ms = Some(millis(left));
        self
    }
}

/// One connection's view of its cache: what it may be served, and the
/// server notifications that make entries stale.
pub(crate) struct ConnectionCache {
    shared: Arc<ClientCache>,
    connection: u64,
    /// The server's identity, over HTTP.
    endpoint: Option<Arc<Endpoint>>,
    /// The connection's notifications, read before each look-up and store.
    notices: Mutex<broadcast::Receiver<Notification>>,
    /// Counts the invalidations this connection has applied, so that a
    /// fetch during which one arrived is not kept.
    epoch: AtomicU64,
}

impl ConnectionCache {
    /// The view of a connection just negotiated, unless caching is off or
    /// the server speaks a legacy version (whose results have no lifetime).
    pub(crate) fn new(connection: &Inner) -> Option<ConnectionCache> {
        if connection.server.era == Era::Legacy {
            return None;
        }
        let endpoint = match &connection.link {
            Link::Http(http) => Some(Endpoint::of(
                http.url(),
                &connection.server.protocol_version,
                &connection.options.capabilities,
            )),
            Link::Lines(_) => None,
        };
        ConnectionCache::with(
            &connection.options.cache,
            endpoint,
            connection.notices.subscribe(),
        )
    }

    fn with(
        caching: &Caching,
        endpoint: Option<Endpoint>,
        notices: broadcast::Receiver<Notification>,
    ) -> Option<ConnectionCache> {
        static CONNECTIONS: AtomicU64 = AtomicU64::new(0);
        let shared = match caching {
            Caching::Off => return None,
            Caching::Own => Arc::new(ClientCache::default()),
            Caching::Shared(cache) => cache.clone(),
        };
        Some(ConnectionCache {
            shared,
            connection: CONNECTIONS.fetch_add(1, Ordering::Relaxed),
            endpoint: endpoint.map(Arc::new),
            notices: Mutex::new(notices),
            epoch: AtomicU64::new(0),
        })
    }

    /// Whom this connection's entries of `scope` are stored for.
    fn owner(&self, scope: CacheScope) -> Owner {
        match (scope, &self.endpoint) {
            (CacheScope::Public, Some(endpoint)) => Owner::Endpoint(endpoint.clone()),
            _ => Owner::Connection(self.connection),
        }
    }

    /// Every owner whose entries this connection may be served.
    fn owners(&self) -> Vec<Owner> {
        let mut owners = vec![Owner::Connection(self.connection)];
        owners.extend(self.endpoint.clone().map(Owner::Endpoint));
        owners
    }

    /// Applies the notifications received since the last catch-up; the
    /// caller holds the receiver's lock.
    fn catch_up(&self, notices: &mut broadcast::Receiver<Notification>) {
        for _ in 0..MAX_CATCH_UP {
            let stale = match notices.try_recv() {
                Ok(notification) => match Stale::of(&notification) {
                    Some(stale) => stale,
                    None => continue,
                },
                Err(TryRecvError::Lagged(_)) => Stale::Everything,
                Err(TryRecvError::Empty | TryRecvError::Closed) => return,
            };
            self.invalidate(&stale);
        }
        self.invalidate(&Stale::Everything);
    }

    fn invalidate(&self, stale: &Stale) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.shared.drop_stale(&self.owners(), stale);
    }

    /// The epoch to pass to [`put`](Self::put) after fetching.
    fn epoch(&self) -> u64 {
        self.catch_up(&mut lock(&self.notices));
        self.epoch.load(Ordering::SeqCst)
    }

    /// What is cached for `what`, and how long it stays fresh.
    fn get<T: Cached>(&self, what: &What) -> Option<(T, Duration)> {
        self.catch_up(&mut lock(&self.notices));
        let now = Instant::now();
        let found = {
            let mut entries = lock(&self.shared.entries);
            self.owners().into_iter().find_map(|owner| {
                let key = Key {
                    owner,
                    what: what.clone(),
                };
                let entry = entries.get(&key)?;
                if entry.expires <= now {
                    entries.remove(&key);
                    return None;
                }
                Some((entry.value.clone(), entry.expires - now))
            })
        };
        // Cloned outside the lock: a long list takes a while.
        let (value, left) = found?;
        Some((value.downcast_ref::<T>()?.clone(), left))
    }

    /// Keeps `value` for `what` as `lifetime` allows, unless the
    /// connection applied an invalidation since `epoch`.
    fn put<T: Cached>(&self, what: What, value: &T, lifetime: Lifetime, epoch: u64) {
        let Some((ttl, scope)) = lifetime.keep() else {
            return;
        };
        // Held until the entry is in: a notification read by anyone after
        // this catch-up is applied after the insert, so it drops the entry.
        let mut notices = lock(&self.notices);
        self.catch_up(&mut notices);
        if self.epoch.load(Ordering::SeqCst) != epoch {
            return;
        }
        let key = Key {
            owner: self.owner(scope),
            what,
        };
        let entry = Entry {
            value: Arc::new(value.clone()),
            expires: Instant::now() + ttl,
        };
        self.shared.insert(key, entry);
    }
}

impl Drop for ConnectionCache {
    /// What only this connection could be served goes with it.
    fn drop(&mut self) {
        let me = Owner::Connection(self.connection);
        lock(&self.shared.entries).retain(|key, _| key.owner != me);
    }
}

impl Client {
    /// What the cache holds for `what` while it is fresh, else `fetch`'s
    /// result, kept as its lifetime allows.
    async fn cached<T: Cached>(
        &self,
        what: What,
        fetch: impl Future<Output = Result<(T, Lifetime), ClientError>>,
    ) -> Result<T, ClientError> {
        let Some(cache) = &self.inner.cache else {
            return Ok(fetch.await?.0);
        };
        if let Some((value, left)) = cache.get::<T>(&what) {
            return Ok(value.served(left));
        }
        let epoch = cache.epoch();
        let (value, lifetime) = fetch.await?;
        cache.put(what, &value, lifetime, epoch);
        Ok(value)
    }

    /// Every item of every page of the list `method` (at most 1,000
    /// pages), from the cache while fresh; `items` takes a page's items.
    pub(crate) async fn cached_list<P, T>(
        &self,
        method: Method,
        items: fn(P) -> Vec<T>,
    ) -> Result<Listed<T>, ClientError>
    where
        P: DeserializeOwned + Paged + Hinted,
        T: Clone + Send + Sync + 'static,
    {
        let fetch = async {
            let pages: Vec<P> = self.pages(method).await?;
            let lifetime = Lifetime::of_pages(pages.iter().map(Hinted::lifetime));
            let items = pages.into_iter().flat_map(items).collect();
            Ok((Listed { items, lifetime }, lifetime))
        };
        self.cached(What::List(method), fetch).await
    }

    /// `resources/read` of `uri`, from the cache while fresh.
    pub(crate) async fn cached_read(&self, uri: &str) -> Result<ReadResourceResult, ClientError> {
        let fetch = async {
            let result: ReadResourceResult = self
                .send(Method::ReadResource, &serde_json::json!({ "uri": uri }))
                .await?;
            let lifetime = result.lifetime();
            Ok((result, lifetime))
        };
        self.cached(What::Read(uri.to_owned()), fetch).await
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_endpoint_shows_no_key_its_url_carries() {
        let url: hyper::Uri = "https://mcp.example/mcp?api_key=s3cret".parse().unwrap();
        let endpoint = Endpoint::of(&url, "2026-07-28", &ClientCapabilities::default());
        let shown = format!("{endpoint:?}");
        assert!(shown.contains("mcp.example"), "{shown}");
        assert!(!shown.contains("s3cret"), "{shown}");
    }

    use super::*;

    fn page(ttl_ms: Option<u64>, scope: Option<CacheScope>) -> Lifetime {
        Lifetime::of(ttl_ms, scope)
    }

    #[test]
    fn pages_keep_the_shortest_lifetime_and_the_narrowest_scope() {
        use CacheScope::{Private, Public};
        let both = Lifetime::of_pages([page(Some(500), Some(Public)), page(Some(200), None)]);
        assert_eq!(both.ttl, Some(Duration::from_millis(200)));
        assert_eq!(both.scope, None);
        assert_eq!(both.keep(), Some((Duration::from_millis(200), Private)));
        let private =
            Lifetime::of_pages([page(Some(9), Some(Public)), page(Some(9), Some(Private))]);
        assert_eq!(private.scope, Some(Private));
        let public = Lifetime::of_pages([page(Some(9), Some(Public)), page(Some(9), Some(Public))]);
        assert_eq!(public.keep(), Some((Duration::from_millis(9), Public)));
        // A page that does not say how long makes the whole list unkept.
        let unsaid = Lifetime::of_pages([page(Some(500), Some(Public)), page(None, Some(Public))]);
        assert_eq!((unsaid.ttl, unsaid.keep()), (None, None));
        assert_eq!(
            page(Some(0), Some(Public)).keep(),
            None,
            "0 is stale at once"
        );
        assert_eq!(Lifetime::of_pages([]).keep(), None);
    }

    #[test]
    fn any_ttl_is_bounded() {
        let (ttl, _) = page(Some(u64::MAX), None).keep().unwrap();
        assert_eq!(ttl, crate::lifetime::MAX_LIFETIME);
        let _ = Instant::now() + ttl;
    }

    fn view(cache: &Arc<ClientCache>, url: Option<&str>) -> ConnectionCache {
        let endpoint = url.map(|url| Endpoint {
            url: url.to_owned(),
            protocol_version: "2026-07-28".into(),
            capabilities: "{}".into(),
        });
        let (_, notices) = broadcast::channel(4);
        ConnectionCache::with(&Caching::Shared(cache.clone()), endpoint, notices).unwrap()
    }

    fn keep(view: &ConnectionCache, uri: &str, scope: CacheScope) {
        let result = ReadResourceResult::default();
        let lifetime = page(Some(60_000), Some(scope));
        view.put(What::Read(uri.into()), &result, lifetime, view.epoch());
    }

    fn has(view: &ConnectionCache, uri: &str) -> bool {
        view.get::<ReadResourceResult>(&What::Read(uri.into()))
            .is_some()
    }

    #[test]
    fn the_capacity_bounds_the_entries() {
        let cache = Arc::new(ClientCache::new(3));
        let one = view(&cache, None);
        for i in 0..10 {
            keep(&one, &format!("file:///{i}"), CacheScope::Public);
            assert!(cache.len() <= 3);
        }
        assert!(has(&one, "file:///9"), "the newest entry is kept");
        let none = Arc::new(ClientCache::new(0));
        keep(&view(&none, None), "file:///a", CacheScope::Public);
        assert!(none.is_empty());
    }

    #[test]
    fn public_entries_are_shared_by_endpoint_private_ones_never() {
        let cache = Arc::new(ClientCache::default());
        let (alice, bob) = (
            view(&cache, Some("http://a/mcp")),
            view(&cache, Some("http://a/mcp")),
        );
        let elsewhere = view(&cache, Some("http://b/mcp"));
        keep(&alice, "file:///public", CacheScope::Public);
        keep(&alice, "file:///private", CacheScope::Private);
        assert!(has(&bob, "file:///public"));
        assert!(!has(&bob, "file:///private"));
        assert!(has(&alice, "file:///private"));
        assert!(!has(&elsewhere, "file:///public"));
        // Without a URL there is no server to share with.
        let (one, two) = (view(&cache, None), view(&cache, None));
        keep(&one, "file:///x", CacheScope::Public);
        assert!(!has(&two, "file:///x"));
        // A connection's private entries go with it.
        drop(alice);
        assert!(cache.len() == 2, "left: the two public entries");
    }

    #[test]
    fn notifications_drop_what_they_make_stale() {
        let cache = Arc::new(ClientCache::default());
        let (sender, notices) = broadcast::channel(4);
        let view = ConnectionCache::with(&Caching::Shared(cache), None, notices).unwrap();
        keep(&view, "file:///a", CacheScope::Private);
        keep(&view, "file:///b", CacheScope::Private);
        let updated = Notification {
            method: NOTIFICATION_RESOURCES_UPDATED.into(),
            params: Some(serde_json::json!({"uri": "file:///a"})),
        };
        sender.send(updated).unwrap();
        assert!(!has(&view, "file:///a"));
        assert!(has(&view, "file:///b"));
        // A store after an invalidation it did not see is refused.
        let before = view.epoch();
        sender
            .send(Notification {
                method: NOTIFICATION_RESOURCES_LIST_CHANGED.into(),
                params: None,
            })
            .unwrap();
        let result = ReadResourceResult::default();
        let lifetime = page(Some(60_000), None);
        view.put(What::Read("file:///c".into()), &result, lifetime, before);
        assert!(!has(&view, "file:///c"));
        assert!(!has(&view, "file:///b"), "a list change drops every read");
        // Falling behind drops everything.
        keep(&view, "file:///d", CacheScope::Private);
        for _ in 0..5 {
            let _ = sender.send(Notification {
                method: "notifications/message".into(),
                params: None,
            });
        }
        assert!(!has(&view, "file:///d"));
    }
}
