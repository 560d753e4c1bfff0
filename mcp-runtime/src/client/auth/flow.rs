//! One client's authorization with one server: the token it holds, and
//! what to do when the server refuses it (401: discover, register,
//! authorize, get a token; 403 `insufficient_scope`: the same for the
//! union of the scopes held and asked for).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::header::HeaderValue;
use serde_json::Value;

use super::discovery::{self, failure};
use super::dpop::{self, Binding};
use super::pkce::{self, Pkce};
use super::redirect::{callback_params, with_query};
use super::refusal::Refusal;
use super::registration::{self, Registration};
use super::store::LOCK_POLL;
use super::{
    Grant, OAuthConfig, StoreLock, StoredDpopKey, StoredIssuer, StoredToken, TokenStore, token,
};
use crate::client::ClientError;
use crate::lifetime::bounded;
use crate::oauth::challenge::Challenge;
use crate::oauth::metadata::AuthorizationServerMetadata;
use crate::oauth::token_authorization;
use crate::sync::lock;

/// The scope that asks for a refresh token.
const OFFLINE_ACCESS: &str = "offline_access";

/// How long after the authorization server failed (no answer, a 5xx, an
/// unreadable one: anything but a refusal) this session asks it nothing:
/// every request meanwhile shares that failure, so that a server that is
/// down sees one token request per client per window, not one (each
/// holding the store's lock up to `timeout`) per call. Shorter than the
/// 30 s a token is renewed before it expires, so that a failed early
/// renewal is tried again before the token runs out.
const FAILURE_BACKOFF: Duration = Duration::from_secs(10);

pub(crate) struct OAuthSession {
    config: Arc<OAuthConfig>,
    /// The MCP endpoint; tokens are kept for it and sent only to it.
    server_url: String,
    state: std::sync::Mutex<State>,
    /// Set once the store's entry was read (at the first request, off the
    /// async threads).
    loaded: tokio::sync::OnceCell<()>,
    /// One flow or refresh at a time: a request that waited for one takes
    /// its outcome (the new token, or the failure that holds off the next).
    flow: tokio::sync::Mutex<()>,
    /// Set while the user's part of the flow runs, whose time the
    /// client's deadlines do not count.
    user_step: std::sync::atomic::AtomicBool,
    /// The DPoP key (RFC 9449) of the session's bound tokens, with the
    /// servers' nonces; made when an authorization server first offers
    /// DPoP, or read from a stored bound token.
    dpop: std::sync::Mutex<Option<Arc<Binding>>>,
}

/// What a request to the MCP server carries: its `Authorization`, and for
/// a DPoP-bound token the `DPoP` proof that goes with it.
pub(crate) struct Credentials {
    pub(crate) authorization: HeaderValue,
    pub(crate) proof: Option<HeaderValue>,
}

#[derive(Default)]
struct State {
    token: Option<StoredToken>,
    /// Registrations by issuer (this run's, and those the store kept):
    /// never shown to another server.
    registrations: HashMap<String, Registration>,
    /// Where the held token came from, for refreshing it.
    source: Option<Source>,
    /// The access token a refresh got after the server refused the one
    /// before: if the server refuses it too, refreshing again is no use.
    refreshed_on_refusal: Option<String>,
    /// The authorization server's last failure, until a token comes.
    failed: Option<Failed>,
}

/// A failure of the authorization server, which holds off asking it again
/// for [`FAILURE_BACKOFF`].
struct Failed {
    at: Instant,
    why: String,
}

/// The issuer's metadata and the resource indicator of the held token.
#[derive(Clone)]
struct Source {
    metadata: AuthorizationServerMetadata,
    resource: String,
}

impl OAuthSession {
    pub(crate) fn new(config: Arc<OAuthConfig>, server_url: &str) -> Self {
        OAuthSession {
            config,
            server_url: server_url.to_owned(),
            state: std::sync::Mutex::new(State::default()),
            loaded: tokio::sync::OnceCell::new(),
            flow: tokio::sync::Mutex::new(()),
            user_step: Default::default(),
            dpop: Default::default(),
        }
    }

    /// Holds the token the store kept, once.
    async fn load_stored(&self) {
        self.loaded
            .get_or_init(|| async {
                let (token, record) = self.read_store().await;
                self.adopt(token, record);
            })
            .await;
    }

    /// The server's token in the store, with the store's record of its
    /// issuer.
    async fn read_store(&self) -> (Option<StoredToken>, Option<StoredIssuer>) {
        self.on_store(|store, server| {
            let token = store.load(server);
            let record = token
                .as_ref()
                .and_then(|token| store.load_issuer(server, &token.issuer));
            (token, record)
        })
        .await
        .unwrap_or_default()
    }

    /// Holds `token`, with `record` of its issuer: the metadata and
    /// resource to refresh it with, and the client's registration. Without
    /// a record of that very issuer, the token cannot be refreshed.
    fn adopt(&self, token: Option<StoredToken>, record: Option<StoredIssuer>) {
        let mut state = lock(&self.state);
        state.source = None;
        if let (Some(token), Some(record)) = (&token, record)
            && record.metadata.issuer == token.issuer
        {
            if let Some(registration) = record
                .registration
                .as_ref()
                .and_then(Registration::from_stored)
            {
                state
                    .registrations
                    .insert(token.issuer.clone(), registration);
            }
            state.source = Some(Source {
                metadata: record.metadata,
                resource: record.resource,
            });
        }
        state.token = token;
    }

    /// The failure that holds off asking the authorization server, within
    /// [`FAILURE_BACKOFF`] of it.
    fn holding_off(&self) -> Option<ClientError> {
        let state = lock(&self.state);
        let failed = state.failed.as_ref()?;
        let ago = failed.at.elapsed();
        (ago < FAILURE_BACKOFF).then(|| {
            failure(format!(
                "the authorization server failed {}s ago, and is not asked again for {}s: {}",
                ago.as_secs(),
                FAILURE_BACKOFF.saturating_sub(ago).as_secs().max(1),
                failed.why
            ))
        })
    }

    /// Remembers that the authorization server failed with `error`.
    fn server_failed(&self, error: &ClientError) {
        lock(&self.state).failed = Some(Failed {
            at: Instant::now(),
            why: error.to_string(),
        });
    }

    /// Whether the user is authorizing right now (in a browser).
    pub(crate) fn user_is_authorizing(&self) -> bool {
        self.user_step.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// How many times one request may be refused and retried.
    pub(crate) fn max_attempts(&self) -> usize {
        self.config.max_step_ups + 1
    }

    fn holds_expired_token(&self) -> bool {
        lock(&self.state)
            .token
            .as_ref()
            .is_some_and(StoredToken::is_expired)
    }

    /// The credentials of a `method` request to `url` with the held token,
    /// refreshed first when it expired and can be.
    pub(crate) async fn credentials(
        &self,
        method: &str,
        url: &hyper::Uri,
    ) -> Result<Option<Credentials>, ClientError> {
        self.load_stored().await;
        if self.holds_expired_token() {
            let _flow = self.flow.lock().await;
            // Another request may have refreshed it meanwhile.
            if self.holds_expired_token()
                && let Err(error) = self.refresh().await
            {
                tracing::debug!(%error, "the token could not be refreshed");
            }
        }
        let Some(token) = lock(&self.state).token.clone() else {
            return Ok(None);
        };
        let Some(authorization) = authorization_of(&token) else {
            return Ok(None);
        };
        let proof = match &token.dpop_key {
            Some(key) => match self.binding_for(key) {
                Ok(binding) => {
                    let url = url.to_string();
                    Some(binding.resource_proof(method, &url, &token.access_token)?)
                }
                // A key this build cannot use (unreadable, or kept by a
                // build with DPoP): the token is useless without it, so
                // the request goes without, and its refusal gets another.
                Err(error) => {
                    tracing::warn!(%error, "the stored DPoP key cannot be used; the token is dropped");
                    lock(&self.state).token = None;
                    return Ok(None);
                }
            },
            None => None,
        };
        Ok(Some(Credentials {
            authorization,
            proof,
        }))
    }

    /// Keeps a nonce the MCP server sent (`DPoP-Nonce`, RFC 9449 section
    /// 9) for the next proofs.
    pub(crate) fn takes_resource_nonce(&self, nonce: &str) {
        if let Some(binding) = lock(&self.dpop).clone() {
            binding.takes_resource_nonce(nonce);
        }
    }

    /// The binding of a token bound to `key`: the session's when it holds
    /// that key, else one made from it.
    fn binding_for(&self, key: &StoredDpopKey) -> Result<Arc<Binding>, ClientError> {
        let mut held = lock(&self.dpop);
        if let Some(binding) = held.as_ref().filter(|binding| binding.holds(key)) {
            return Ok(Arc::clone(binding));
        }
        let binding = Arc::new(Binding::from_stored(key)?);
        *held = Some(Arc::clone(&binding));
        Ok(binding)
    }

    /// The binding for a new token from an authorization server that
    /// offers DPoP: the session's key, or a new one. `None` where the
    /// server does not offer it (a bearer token).
    fn binding_for_new(
        &self,
        metadata: &AuthorizationServerMetadata,
    ) -> Result<Option<Arc<Binding>>, ClientError> {
        let Some(algorithm) = dpop::offered(metadata) else {
            return Ok(None);
        };
        let mut held = lock(&self.dpop);
        if let Some(binding) = held.as_ref().filter(|b| b.algorithm() == algorithm) {
            return Ok(Some(Arc::clone(binding)));
        }
        let binding = Arc::new(Binding::generate(algorithm)?);
        *held = Some(Arc::clone(&binding));
        Ok(Some(binding))
    }

    /// Whether a refusal is one this session can act on: any 401, and a 403
    /// `insufficient_scope`.
    pub(crate) fn can_recover(status: u16, challenge: Option<&Challenge>) -> bool {
        status == 401
            || (status == 403 && challenge.and_then(Challenge::error) == Some("insufficient_scope"))
    }

    /// Gets a new token after the server refused the held one (or none):
    /// refreshed when it can be, else from the grant.
    pub(crate) async fn recover(
        &self,
        status: u16,
        challenge: Option<&Challenge>,
        sent: Option<&HeaderValue>,
    ) -> Result<(), ClientError> {
        self.load_stored().await;
        let _flow = self.flow.lock().await;
        // Another request may have got a new token meanwhile.
        if self.authorization_now().as_ref() != sent && status == 401 {
            return Ok(());
        }
        if status == 401 && self.refresh_after_refusal().await {
            return Ok(());
        }
        // Or met the authorization server failing, just now.
        if let Some(error) = self.holding_off() {
            return Err(error);
        }
        if let Grant::WithoutUser(why) = &self.config.grant {
            return Err(failure(why.clone()));
        }
        let held: BTreeSet<String> = lock(&self.state)
            .token
            .as_ref()
            .map(|t| t.scopes.iter().cloned().collect())
            .unwrap_or_default();
        let asked: BTreeSet<String> = challenge
            .and_then(Challenge::scope)
            .map(|s| {
                s.split(' ')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if status == 403 && asked.is_subset(&held) {
            return Err(failure(format!(
                "the server refuses a token that already holds the scopes it asks for ({})",
                asked.iter().cloned().collect::<Vec<_>>().join(" ")
            )));
        }
        let resource =
            discovery::protected_resource(&self.server_url, challenge, self.config.timeout).await?;
        let issuer = resource
            .authorization_servers
            .first()
            .cloned()
            .ok_or_else(|| {
                failure(format!(
                    "the resource {} names no authorization server",
                    crate::redact::RedactedUrl::new(&resource.resource)
                ))
            })?;
        let metadata = discovery::authorization_server(&issuer, self.config.timeout)
            .await
            .inspect_err(|error| self.server_failed(error))?;
        let mut scopes: BTreeSet<String> = held.union(&asked).cloned().collect();
        if asked.is_empty() && status == 401 {
            scopes.extend(resource.scopes_supported.iter().cloned());
        }
        // The grant decides the form; the token request is the same.
        let (registration, form, scopes) = match &self.config.grant {
            Grant::ClientCredentials(credentials) => {
                let registration = Registration::configured(credentials, &metadata);
                let mut form = vec![
                    ("grant_type", "client_credentials".to_owned()),
                    ("resource", resource.resource.clone()),
                ];
                let scopes: Vec<String> = scopes.into_iter().collect();
                if !scopes.is_empty() {
                    form.push(("scope", scopes.join(" ")));
                }
                (registration, form, scopes)
            }
            Grant::AuthorizationCode(step) => {
                let offers_offline = metadata
                    .scopes_supported
                    .iter()
                    .any(|s| s == OFFLINE_ACCESS);
                if offers_offline {
                    scopes.insert(OFFLINE_ACCESS.to_owned());
                }
                let scopes: Vec<String> = scopes.into_iter().collect();
                let redirect_uri = step.redirect_uri();
                let known = self
                    .registration_for(&issuer, &metadata, Some(&redirect_uri))
                    .await;
                let registration = match known {
                    Some(registration) => registration,
                    None => {
                        let registration =
                            registration::register(&self.config, &metadata, &redirect_uri).await?;
                        lock(&self.state)
                            .registrations
                            .insert(issuer.clone(), registration.clone());
                        registration
                    }
                };
                let pkce = Pkce::new()?;
                let state = pkce::random_token()?;
                let endpoint = metadata.authorization_endpoint.as_deref().ok_or_else(|| {
                    let issuer = crate::redact::RedactedUrl::new(&issuer);
                    failure(format!(
                        "the authorization server {issuer} has no authorization endpoint"
                    ))
                })?;
                let scope = scopes.join(" ");
                let mut query = vec![
                    ("response_type", "code"),
                    ("client_id", registration.credentials.client_id.as_str()),
                    ("redirect_uri", redirect_uri.as_str()),
                    ("code_challenge", pkce.challenge.as_str()),
                    ("code_challenge_method", "S256"),
                    ("state", state.as_str()),
                    ("resource", resource.resource.as_str()),
                ];
                if !scope.is_empty() {
                    query.push(("scope", scope.as_str()));
                }
                let redirected = {
                    let _user = UserStep::start(&self.user_step);
                    step.authorize(&with_query(endpoint, &query)).await?
                };
                let code = check_callback(&redirected, &state, &issuer, &metadata)?;
                let form = vec![
                    ("grant_type", "authorization_code".to_owned()),
                    ("code", code),
                    ("redirect_uri", redirect_uri.clone()),
                    ("code_verifier", pkce.verifier),
                    ("resource", resource.resource.clone()),
                ];
                (registration, form, scopes)
            }
            Grant::WithoutUser(why) => return Err(failure(why.clone())),
            Grant::EnterpriseManaged { idp, client } => {
                let scopes: Vec<String> = scopes.into_iter().collect();
                let grant = idp
                    .identity_grant(&metadata, &resource.resource, &scopes, self.config.timeout)
                    .await?;
                let form = jwt_bearer_form(grant, &resource.resource, &scopes);
                (Registration::configured(client, &metadata), form, scopes)
            }
            Grant::WorkloadIdentity { client, token } => {
                let scopes: Vec<String> = scopes.into_iter().collect();
                let form = jwt_bearer_form(token.read().await?, &resource.resource, &scopes);
                (Registration::configured(client, &metadata), form, scopes)
            }
        };
        let binding = self.binding_for_new(&metadata)?;
        let answer = token::request(
            token_endpoint(&metadata)?,
            &issuer,
            &registration,
            form,
            &scopes,
            self.config.timeout,
            binding.as_deref(),
        )
        .await;
        let token = match answer {
            Ok(token) => token,
            Err(failure) => {
                if failure.refused.is_none() {
                    self.server_failed(&failure.error);
                }
                return Err(failure.error);
            }
        };
        // The client's own registration is kept with the token, never
        // credentials from its configuration; both in one change, so that
        // no other client reads the one without the other.
        let own = self.configured_registration(&metadata).is_none();
        let record = StoredIssuer::new(
            metadata.clone(),
            resource.resource.clone(),
            own.then(|| registration.to_stored()).flatten(),
        );
        let saved = token.clone();
        self.on_store(move |store, server| {
            store.update(server, &issuer, &mut |entry| {
                entry.issuer = Some(record.clone());
                entry.token = Some(saved.clone());
            });
        })
        .await;
        let mut state = lock(&self.state);
        state.source = Some(Source {
            metadata,
            resource: resource.resource,
        });
        state.token = Some(token);
        state.refreshed_on_refusal = None;
        state.failed = None;
        Ok(())
    }

    /// `Authorization` for the held token, as it is: `DPoP ...` for a
    /// bound one, else `Bearer ...`.
    fn authorization_now(&self) -> Option<HeaderValue> {
        lock(&self.state).token.as_ref().and_then(authorization_of)
    }

    /// After a 401: a refreshed token (or one another client saved
    /// meanwhile), unless the refused token came from such a refresh.
    async fn refresh_after_refusal(&self) -> bool {
        let refused = lock(&self.state)
            .token
            .as_ref()
            .map(|t| t.access_token.clone());
        if refused.is_none() || refused == lock(&self.state).refreshed_on_refusal {
            return false;
        }
        match self.refresh().await {
            Ok(()) => {
                let mut state = lock(&self.state);
                state.refreshed_on_refusal = state.token.as_ref().map(|t| t.access_token.clone());
                true
            }
            Err(error) => {
                tracing::debug!(%error, "the refused token could not be refreshed");
                false
            }
        }
    }

    /// Trades the held refresh token for a new access token at the issuer
    /// that issued it. The store's lock is held from reading the token to
    /// saving the new one, so that no refresh token is used twice: a token
    /// another client saved meanwhile is taken instead, and refreshed only
    /// if it expired too. Only a refusal of the grant (or of the client)
    /// forgets what was stored. Within [`FAILURE_BACKOFF`] of a failure of
    /// the authorization server, only a token another client saved is
    /// taken.
    async fn refresh(&self) -> Result<(), ClientError> {
        if let Some(error) = self.holding_off() {
            let (stored, record) = self.read_store().await;
            let held = lock(&self.state).token.clone();
            if stored.is_some()
                && stored != held
                && stored.as_ref().is_some_and(|t| !t.is_expired())
            {
                self.adopt(stored, record);
                return Ok(());
            }
            return Err(error);
        }
        let _lock = self.store_lock().await?;
        let held = lock(&self.state).token.clone();
        let (stored, record) = self.read_store().await;
        if stored.is_some() && stored != held {
            self.adopt(stored, record);
            if !self.holds_expired_token() {
                return Ok(());
            }
        }
        let (token, source) = {
            let state = lock(&self.state);
            (state.token.clone(), state.source.clone())
        };
        let Some(token) = token else {
            return Err(failure("no token to refresh"));
        };
        // A token is refreshed only where it was issued.
        let Some(source) = source.filter(|source| source.metadata.issuer == token.issuer) else {
            return Err(failure(format!(
                "nothing is known of the issuer {} to refresh the token with",
                crate::redact::RedactedUrl::new(&token.issuer)
            )));
        };
        let refresh_token = token
            .refresh_token
            .clone()
            .ok_or_else(|| failure("no refresh token"))?;
        let registration = self
            .registration_for(&token.issuer, &source.metadata, None)
            .await
            .ok_or_else(|| failure("no registration at the token's issuer"))?;
        let form = vec![
            ("grant_type", "refresh_token".to_owned()),
            ("refresh_token", refresh_token.clone()),
            ("resource", source.resource),
        ];
        // A bound token's refresh proves the same key (RFC 9449 section 5).
        let binding = match &token.dpop_key {
            Some(key) => Some(self.binding_for(key)?),
            None => None,
        };
        let answer = token::request(
            token_endpoint(&source.metadata)?,
            &token.issuer,
            &registration,
            form,
            &token.scopes,
            self.config.timeout,
            binding.as_deref(),
        )
        .await;
        let mut fresh = match answer {
            Ok(fresh) => fresh,
            Err(failure) => {
                match failure.refused {
                    Some(refusal) => self.forget(refusal, token, &registration).await,
                    None => self.server_failed(&failure.error),
                }
                return Err(failure.error);
            }
        };
        if fresh.refresh_token.is_none() {
            fresh.refresh_token = Some(refresh_token);
        }
        let saved = fresh.clone();
        self.on_store(move |store, server| store.save(server, Some(&saved)))
            .await;
        let mut state = lock(&self.state);
        state.token = Some(fresh);
        state.failed = None;
        Ok(())
    }

    /// The right to refresh, waiting while another client holds it (for
    /// at most two of its token requests: it is asking the authorization
    /// server, and a wait past that counts as the server's failure).
    async fn store_lock(&self) -> Result<StoreLock, ClientError> {
        let patience = bounded(self.config.timeout.saturating_mul(2));
        let deadline = Instant::now() + patience;
        loop {
            let attempt = self.on_store(|store, server| store.try_lock(server)).await;
            match attempt {
                Some(Ok(Some(lock))) => return Ok(lock),
                Some(Ok(None)) if Instant::now() < deadline => tokio::time::sleep(LOCK_POLL).await,
                Some(Ok(None)) => {
                    let error = failure(format!(
                        "another client kept the token store locked for {patience:?}"
                    ));
                    self.server_failed(&error);
                    return Err(error);
                }
                Some(Err(error)) => {
                    return Err(failure(format!(
                        "the token store cannot be locked: {error}"
                    )));
                }
                None => return Err(failure("the token store failed")),
            }
        }
    }

    /// Forgets `refused`, the token the authorization server refused the
    /// refresh of, and `registration` too when it refused the client; the
    /// issuer's metadata stays, and so does what another client saved in
    /// their place meanwhile.
    async fn forget(&self, refusal: Refusal, refused: StoredToken, registration: &Registration) {
        let forget_client = refusal == Refusal::Client;
        let issuer = refused.issuer.clone();
        let client_id = registration.credentials.client_id.clone();
        {
            let mut state = lock(&self.state);
            state.token = None;
            if forget_client {
                state.registrations.remove(&issuer);
            }
        }
        self.on_store(move |store, server| {
            store.update(server, &issuer, &mut |entry| {
                let same_grant = |token: &StoredToken| token.refresh_token == refused.refresh_token;
                if entry.token.as_ref().is_some_and(same_grant) {
                    entry.token = None;
                }
                if let (true, Some(record)) = (forget_client, entry.issuer.as_mut())
                    && record
                        .registration
                        .as_ref()
                        .is_some_and(|stored| stored.client_id == client_id)
                {
                    record.registration = None;
                }
            });
        })
        .await;
    }

    /// Credentials from the configuration, when it has them.
    fn configured_registration(
        &self,
        metadata: &AuthorizationServerMetadata,
    ) -> Option<Registration> {
        let credentials = match &self.config.grant {
            Grant::ClientCredentials(credentials)
            | Grant::EnterpriseManaged {
                client: credentials,
                ..
            }
            | Grant::WorkloadIdentity {
                client: credentials,
                ..
            } => credentials,
            _ => self.config.pre_registered.as_ref()?,
        };
        Some(Registration::configured(credentials, metadata))
    }

    /// The one rule for who the client is at `issuer`, to refresh or to
    /// authorize with `redirect_uri`: credentials from the configuration
    /// first, else its own registration there (this run's or the store's)
    /// when that accepts the redirect URI. `None`: it registers.
    async fn registration_for(
        &self,
        issuer: &str,
        metadata: &AuthorizationServerMetadata,
        redirect_uri: Option<&str>,
    ) -> Option<Registration> {
        if let Some(configured) = self.configured_registration(metadata) {
            return Some(configured);
        }
        let own = self.registration_at(issuer).await?;
        redirect_uri
            .is_none_or(|uri| own.accepts(uri))
            .then_some(own)
    }

    /// This client's registration at `issuer`: this run's, or the one the
    /// store kept.
    async fn registration_at(&self, issuer: &str) -> Option<Registration> {
        if let Some(known) = lock(&self.state).registrations.get(issuer) {
            return Some(known.clone());
        }
        let wanted = issuer.to_owned();
        let record = self
            .on_store(move |store, server| store.load_issuer(server, &wanted))
            .await??;
        let registration = Registration::from_stored(record.registration.as_ref()?)?;
        lock(&self.state)
            .registrations
            .insert(issuer.to_owned(), registration.clone());
        Some(registration)
    }

    /// Runs `work` on the store off the async threads (a file store may
    /// wait there for another process's lock); `None` if it panicked.
    async fn on_store<T: Send + 'static>(
        &self,
        work: impl FnOnce(&dyn TokenStore, &str) -> T + Send + 'static,
    ) -> Option<T> {
        let store = Arc::clone(&self.config.store);
        let server = self.server_url.clone();
        let work = tokio::task::spawn_blocking(move || work(store.as_ref(), &server));
        work.await
            .inspect_err(|error| tracing::warn!(%error, "the token store failed"))
            .ok()
    }
}

/// `Authorization` for `token`: `DPoP ...` for a bound one, else
/// `Bearer ...`.
fn authorization_of(token: &StoredToken) -> Option<HeaderValue> {
    let scheme = match token.dpop_key {
        Some(_) => crate::oauth::dpop::SCHEME,
        None => "Bearer",
    };
    token_authorization(scheme, &token.access_token)
}

/// The form of a JWT-bearer grant (RFC 7523 section 2.1) of `assertion`.
fn jwt_bearer_form(
    assertion: String,
    resource: &str,
    scopes: &[String],
) -> Vec<(&'static str, String)> {
    let mut form = vec![
        ("grant_type", super::enterprise::JWT_BEARER_GRANT.to_owned()),
        ("assertion", assertion),
        ("resource", resource.to_owned()),
    ];
    if !scopes.is_empty() {
        form.push(("scope", scopes.join(" ")));
    }
    form
}

fn token_endpoint(metadata: &AuthorizationServerMetadata) -> Result<&str, ClientError> {
    metadata.token_endpoint.as_deref().ok_or_else(|| {
        failure(format!(
            "the authorization server {} has no token endpoint",
            crate::redact::RedactedUrl::new(&metadata.issuer)
        ))
    })
}

/// The code from the redirect, once its `state` matches and its `iss`
/// (RFC 9207) equals the issuer exactly, or is absent where the server
/// does not promise it.
fn check_callback(
    redirected: &str,
    state: &str,
    issuer: &str,
    metadata: &AuthorizationServerMetadata,
) -> Result<String, ClientError> {
    let params = callback_params(redirected);
    if let Some(error) = params.get("error") {
        let description = params
            .get("error_description")
            .map(String::as_str)
            .unwrap_or_default();
        return Err(failure(format!(
            "the authorization was refused: {error} {description}"
        )));
    }
    if params.get("state").map(String::as_str) != Some(state) {
        return Err(failure("the redirect's state does not match the request's"));
    }
    let promised = metadata
        .extra
        .get("authorization_response_iss_parameter_supported")
        == Some(&Value::Bool(true));
    match params.get("iss") {
        Some(iss) if iss != issuer => {
            let (iss, issuer) = (
                crate::redact::RedactedUrl::new(iss),
                crate::redact::RedactedUrl::new(issuer),
            );
            return Err(failure(format!(
                "the redirect comes from the issuer {iss:?}, not {issuer:?} (RFC 9207)"
            )));
        }
        None if promised => {
            return Err(failure(
                "the redirect lacks the `iss` its authorization server promises (RFC 9207)",
            ));
        }
        _ => {}
    }
    params
        .get("code")
        .cloned()
        .ok_or_else(|| failure("the redirect carries no code"))
}

/// Marks the user's part of the flow as running until dropped.
struct UserStep<'a>(&'a std::sync::atomic::AtomicBool);

impl<'a> UserStep<'a> {
    fn start(flag: &'a std::sync::atomic::AtomicBool) -> Self {
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
        UserStep(flag)
    }
}

impl Drop for UserStep<'_> {
    fn drop(&mut self) {
        self.0.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}
