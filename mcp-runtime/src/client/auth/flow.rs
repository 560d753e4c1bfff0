//! One client's authorization with one server: the token it holds, and
//! what to do when the server refuses it (401: discover, register,
//! authorize, get a token; 403 `insufficient_scope`: the same for the
//! union of the scopes held and asked for).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use hyper::header::HeaderValue;
use serde_json::Value;

use super::discovery::{self, failure};
use super::pkce::{self, Pkce};
use super::redirect::{callback_params, with_query};
use super::registration::{self, Registration};
use super::{Grant, OAuthConfig, StoredToken, token};
use crate::client::ClientError;
use crate::oauth::bearer_authorization;
use crate::oauth::challenge::Challenge;
use crate::oauth::metadata::AuthorizationServerMetadata;
use crate::sync::lock;

/// The scope that asks for a refresh token.
const OFFLINE_ACCESS: &str = "offline_access";

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
    /// Registrations by issuer: never shown to another server.
    registrations: HashMap<String, Registration>,
    /// Where the held token came from, for refreshing it.
    source: Option<(AuthorizationServerMetadata, String)>,
}

impl OAuthSession {
    pub(crate) fn new(config: Arc<OAuthConfig>, server_url: &str) -> Self {
        let token = config.store.load(server_url);
        OAuthSession {
            config,
            server_url: server_url.to_owned(),
            state: std::sync::Mutex::new(State {
                token,
                ..State::default()
            }),
            flow: tokio::sync::Mutex::new(()),
            user_step: Default::default(),
        }
    }

    /// Whether the user is authorizing right now (in a browser).
    pub(crate) fn user_is_authorizing(&self) -> bool {
        self.user_step.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// How many times one request may be refused and retried.
    pub(crate) fn max_attempts(&self) -> usize {
        self.config.max_step_ups + 1
    }

    /// `Authorization: Bearer ...` for the held token, refreshed first when
    /// it expired and can be.
    pub(crate) async fn bearer(&self) -> Option<HeaderValue> {
        let expired = lock(&self.state)
            .token
            .as_ref()
            .is_some_and(StoredToken::is_expired);
        if expired {
            let _flow = self.flow.lock().await;
            if let Err(error) = self.refresh().await {
                tracing::debug!(%error, "the token could not be refreshed");
                self.forget();
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

    /// Gets a new token after the server refused the held one (or none).
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
                let registration = Registration {
                    method: registration::method_for(&credentials.secret, &metadata),
                    credentials: credentials.clone(),
                };
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
                let known = lock(&self.state).registrations.get(&issuer).cloned();
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
        };
        let token = token::request(
            token_endpoint(&metadata)?,
            &issuer,
            &registration,
            form,
            &scopes,
            self.config.timeout,
        )
        .await?;
        lock(&self.state).source = Some((metadata, resource.resource.clone()));
        self.config.store.save(&self.server_url, Some(&token));
        lock(&self.state).token = Some(token);
        Ok(())
    }

    /// `Authorization: Bearer ...` for the held token, as it is.
    fn bearer_now(&self) -> Option<HeaderValue> {
        let token = lock(&self.state).token.clone()?;
        bearer_authorization(&token.access_token)
    }

    fn forget(&self) {
        lock(&self.state).token = None;
        self.config.store.save(&self.server_url, None);
    }

    /// Trades the held refresh token for a new access token at the issuer
    /// that issued it.
    async fn refresh(&self) -> Result<(), ClientError> {
        let (token, source) = {
            let state = lock(&self.state);
            (state.token.clone(), state.source.clone())
        };
        let (Some(token), Some((metadata, resource))) = (token, source) else {
            return Err(failure("nothing to refresh with"));
        };
        let refresh_token = token
            .refresh_token
            .clone()
            .ok_or_else(|| failure("no refresh token"))?;
        let registration = lock(&self.state)
            .registrations
            .get(&token.issuer)
            .cloned()
            .or_else(|| match &self.config.grant {
                Grant::ClientCredentials(credentials) => Some(Registration {
                    method: registration::method_for(&credentials.secret, &metadata),
                    credentials: credentials.clone(),
                }),
                Grant::AuthorizationCode(_) => None,
            })
            .ok_or_else(|| failure("no registration at the token's issuer"))?;
        let form = vec![
            ("grant_type", "refresh_token".to_owned()),
            ("refresh_token", refresh_token.clone()),
            ("resource", resource),
        ];
        let mut fresh = token::request(
            token_endpoint(&metadata)?,
            &token.issuer,
            &registration,
            form,
            &token.scopes,
            self.config.timeout,
        )
        .await?;
        if fresh.refresh_token.is_none() {
            fresh.refresh_token = Some(refresh_token);
        }
        self.config.store.save(&self.server_url, Some(&fresh));
        lock(&self.state).token = Some(fresh);
        Ok(())
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
