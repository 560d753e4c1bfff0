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
use super::pkce::{self, Pkce};
use super::redirect::{callback_params, with_query};
use super::refusal::Refusal;
use super::registration::{self, Registration};
use super::{Grant, OAuthConfig, StoreLock, StoredIssuer, StoredToken, TokenStore, token};
use crate::client::ClientError;
use crate::oauth::bearer_authorization;
use crate::oauth::challenge::Challenge;
use crate::oauth::metadata::AuthorizationServerMetadata;
use crate::sync::lock;

/// The scope that asks for a refresh token.
const OFFLINE_ACCESS: &str = "offline_access";

/// How often a refresh waiting for another client's tries the store again.
const LOCK_POLL: Duration = Duration::from_millis(20);

pub(crate) struct OAuthSession {
    config: Arc<OAuthConfig>,
    /// The MCP endpoint; tokens are kept for it and sent only to it.
    server_url: String,
    state: std::sync::Mutex<State>,
    /// One flow at a time.
    flow: tokio::sync::Mutex<()>,
    /// Set while the user's part of the flow runs, whose time the
    /// client's deadlines do not count.
    user_step: std::sync::atomic::AtomicBool,
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
}

/// The issuer's metadata and the resource indicator of the held token.
#[derive(Clone)]
struct Source {
    metadata: AuthorizationServerMetadata,
    resource: String,
}

impl OAuthSession {
    pub(crate) fn new(config: Arc<OAuthConfig>, server_url: &str) -> Self {
        let session = OAuthSession {
            config,
            server_url: server_url.to_owned(),
            state: std::sync::Mutex::new(State::default()),
            flow: tokio::sync::Mutex::new(()),
            user_step: Default::default(),
        };
        session.adopt(session.config.store.load(server_url));
        session
    }

    /// Holds `token`, with what the store kept of its issuer: the metadata
    /// and resource to refresh it with, and the client's registration.
    fn adopt(&self, token: Option<StoredToken>) {
        let record = token
            .as_ref()
            .and_then(|t| self.config.store.load_issuer(&self.server_url, &t.issuer));
        let mut state = lock(&self.state);
        if let (Some(token), Some(record)) = (&token, record) {
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

    /// `Authorization: Bearer ...` for the held token, refreshed first when
    /// it expired and can be.
    pub(crate) async fn bearer(&self) -> Option<HeaderValue> {
        if self.holds_expired_token() {
            let _flow = self.flow.lock().await;
            // Another request may have refreshed it meanwhile.
            if self.holds_expired_token()
                && let Err(error) = self.refresh().await
            {
                tracing::debug!(%error, "the token could not be refreshed");
            }
        }
        self.bearer_now()
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
        let _flow = self.flow.lock().await;
        // Another request may have got a new token meanwhile.
        if self.bearer_now().as_ref() != sent && status == 401 {
            return Ok(());
        }
        if status == 401 && self.refresh_after_refusal().await {
            return Ok(());
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
        let metadata = discovery::authorization_server(&issuer, self.config.timeout).await?;
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
                    .registration_at(&issuer)
                    .filter(|known| known.accepts(&redirect_uri));
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
        };
        let token = token::request(
            token_endpoint(&metadata)?,
            &issuer,
            &registration,
            form,
            &scopes,
            self.config.timeout,
        )
        .await
        .map_err(|failure| failure.error)?;
        // The client's own registration is kept with the token, never
        // credentials from its configuration.
        let own = self.configured_registration(&metadata).is_none();
        let record = StoredIssuer::new(
            metadata.clone(),
            resource.resource.clone(),
            own.then(|| registration.to_stored()).flatten(),
        );
        let saved = token.clone();
        self.on_store(move |store, server| {
            store.save_issuer(server, &issuer, Some(&record));
            store.save(server, Some(&saved));
        })
        .await;
        let mut state = lock(&self.state);
        state.source = Some(Source {
            metadata,
            resource: resource.resource,
        });
        state.token = Some(token);
        state.refreshed_on_refusal = None;
        Ok(())
    }

    /// `Authorization: Bearer ...` for the held token, as it is.
    fn bearer_now(&self) -> Option<HeaderValue> {
        let token = lock(&self.state).token.clone()?;
        bearer_authorization(&token.access_token)
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
    /// forgets what was stored.
    async fn refresh(&self) -> Result<(), ClientError> {
        let _lock = self.store_lock().await?;
        let held = lock(&self.state).token.clone();
        let stored = self.config.store.load(&self.server_url);
        if stored.is_some() && stored != held {
            self.adopt(stored);
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
        let Some(source) = source else {
            return Err(failure(format!(
                "nothing is known of the issuer {} to refresh the token with",
                token.issuer
            )));
        };
        let refresh_token = token
            .refresh_token
            .clone()
            .ok_or_else(|| failure("no refresh token"))?;
        let registration = self
            .configured_registration(&source.metadata)
            .or_else(|| self.registration_at(&token.issuer))
            .ok_or_else(|| failure("no registration at the token's issuer"))?;
        let form = vec![
            ("grant_type", "refresh_token".to_owned()),
            ("refresh_token", refresh_token.clone()),
            ("resource", source.resource),
        ];
        let answer = token::request(
            token_endpoint(&source.metadata)?,
            &token.issuer,
            &registration,
            form,
            &token.scopes,
            self.config.timeout,
        )
        .await;
        let mut fresh = match answer {
            Ok(fresh) => fresh,
            Err(failure) => {
                if let Some(refusal) = failure.refused {
                    self.forget(refusal, token.issuer).await;
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
        lock(&self.state).token = Some(fresh);
        Ok(())
    }

    /// The right to refresh, waiting while another client holds it (for
    /// at most two of its token requests).
    async fn store_lock(&self) -> Result<StoreLock, ClientError> {
        let patience = self.config.timeout.saturating_mul(2);
        let deadline = Instant::now() + patience;
        loop {
            match self.config.store.try_lock(&self.server_url) {
                Ok(Some(lock)) => return Ok(lock),
                Ok(None) if Instant::now() < deadline => tokio::time::sleep(LOCK_POLL).await,
                Ok(None) => {
                    return Err(failure(format!(
                        "another client kept the token store locked for {patience:?}"
                    )));
                }
                Err(error) => {
                    return Err(failure(format!(
                        "the token store cannot be locked: {error}"
                    )));
                }
            }
        }
    }

    /// Forgets the token the authorization server refused the refresh of,
    /// and the registration too when it refused the client; the issuer's
    /// metadata stays.
    async fn forget(&self, refusal: Refusal, issuer: String) {
        let forget_client = refusal == Refusal::Client;
        {
            let mut state = lock(&self.state);
            state.token = None;
            if forget_client {
                state.registrations.remove(&issuer);
            }
        }
        self.on_store(move |store, server| {
            store.save(server, None);
            let record = store.load_issuer(server, &issuer);
            if let (true, Some(mut record)) = (forget_client, record) {
                record.registration = None;
                store.save_issuer(server, &issuer, Some(&record));
            }
        })
        .await;
    }

    /// Credentials from the configuration, when it has them.
    fn configured_registration(
        &self,
        metadata: &AuthorizationServerMetadata,
    ) -> Option<Registration> {
        let credentials = match &self.config.grant {
            Grant::ClientCredentials(credentials) => credentials,
            _ => self.config.pre_registered.as_ref()?,
        };
        Some(Registration::configured(credentials, metadata))
    }

    /// This client's registration at `issuer`: this run's, or the one the
    /// store kept.
    fn registration_at(&self, issuer: &str) -> Option<Registration> {
        if let Some(known) = lock(&self.state).registrations.get(issuer) {
            return Some(known.clone());
        }
        let record = self.config.store.load_issuer(&self.server_url, issuer)?;
        let registration = Registration::from_stored(record.registration.as_ref()?)?;
        lock(&self.state)
            .registrations
            .insert(issuer.to_owned(), registration.clone());
        Some(registration)
    }

    /// Runs `change` on the store off the async threads: a file store may
    /// wait there for another process's lock.
    async fn on_store(&self, change: impl FnOnce(&dyn TokenStore, &str) + Send + 'static) {
        let store = Arc::clone(&self.config.store);
        let server = self.server_url.clone();
        let work = tokio::task::spawn_blocking(move || change(store.as_ref(), &server));
        if let Err(error) = work.await {
            tracing::warn!(%error, "the token store failed");
        }
    }
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
