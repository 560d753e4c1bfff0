//! Token introspection (RFC 7662): the authorization server says whether a
//! token is active and what it grants, for opaque tokens a resource server
//! cannot read itself.

use std::time::Duration;

use hyper::header::HeaderValue;
use serde_json::{Map, Value};

use super::verifier::VerifyFuture;
use super::{AuthSetupError, Principal, TokenError, TokenVerifier, check_issuer_url};
use crate::oauth::basic_authorization;
use crate::oauth::metadata::MAX_DOCUMENT_BYTES;
use crate::outbound::{self, HttpClient, fetch};

/// Asks the authorization server's introspection endpoint about every
/// token. A token counts only when it is `active`, its `aud` contains this
/// server's resource URL, it has not expired, and (when an issuer is set)
/// its `iss` matches exactly.
///
/// ```no_run
/// use mcp_toolkit_runtime::server::auth::IntrospectionVerifier;
///
/// let verifier = IntrospectionVerifier::new(
///     "https://auth.example.com/token/introspection",
///     "https://mcp.example.com/mcp",
/// )?
/// .client_credentials("mcp-server", "secret");
/// # Ok::<(), mcp_toolkit_runtime::server::auth::AuthSetupError>(())
/// ```
#[derive(Clone)]
pub struct IntrospectionVerifier {
    endpoint: String,
    audience: String,
    issuer: Option<String>,
    credentials: Option<HeaderValue>,
    timeout: Duration,
    client: HttpClient,
}

impl IntrospectionVerifier {
    /// Introspects at `endpoint` (`https://`, or `http://` on a loopback
    /// host), accepting tokens whose audience includes `audience`.
    pub fn new(endpoint: &str, audience: &str) -> Result<Self, AuthSetupError> {
        check_issuer_url(endpoint)?;
        let uri = endpoint.parse().map_err(|e| {
            let endpoint = crate::redact::RedactedUrl::new(endpoint);
            AuthSetupError::new(format!("invalid URL {endpoint}: {e}"))
        })?;
        let client = outbound::client_for(&uri).map_err(|e| AuthSetupError::new(e.to_string()))?;
        Ok(IntrospectionVerifier {
            endpoint: endpoint.to_owned(),
            audience: audience.to_owned(),
            issuer: None,
            credentials: None,
            timeout: Duration::from_secs(10),
            client,
        })
    }

    /// Authenticates to the endpoint with HTTP Basic (`client_secret_basic`).
    pub fn client_credentials(mut self, client_id: &str, client_secret: &str) -> Self {
        self.credentials = Some(basic_authorization(client_id, client_secret));
        self
    }

    /// Requires `iss` in the answer to equal `issuer`.
    pub fn issuer(mut self, issuer: &str) -> Self {
        self.issuer = Some(issuer.to_owned());
        self
    }

    async fn introspect(&self, token: &str) -> Result<Principal, TokenError> {
        let answer: Map<String, Value> = fetch::post_form(
            &self.client,
            &self.endpoint,
            &[("token", token), ("token_type_hint", "access_token")],
            self.credentials.clone(),
            MAX_DOCUMENT_BYTES,
            self.timeout,
        )
        .await
        .map_err(TokenError::Unavailable)?;
        if answer.get("active") != Some(&Value::Bool(true)) {
            return Err(TokenError::Invalid("the token is not active".into()));
        }
        let audience_ok = match answer.get("aud") {
            Some(Value::String(aud)) => *aud == self.audience,
            Some(Value::Array(auds)) => auds.iter().any(|a| a.as_str() == Some(&self.audience)),
            _ => false,
        };
        if !audience_ok {
            return Err(TokenError::Invalid(
                "the token is for another audience".into(),
            ));
        }
        if let Some(issuer) = &self.issuer
            && answer.get("iss").and_then(Value::as_str) != Some(issuer)
        {
            return Err(TokenError::Invalid(
                "the token is from another issuer".into(),
            ));
        }
        let now = crate::lifetime::unix_now();
        // RFC 7662's `exp` is an integer, but a fraction or a negative
        // number is a time all the same (`as_u64` took them for no expiry);
        // an `exp` that is no number is refused, not ignored.
        let expired = match answer.get("exp") {
            None | Some(Value::Null) => false,
            Some(exp) => exp.as_f64().is_none_or(|exp| exp <= now as f64),
        };
        if expired {
            return Err(TokenError::Invalid("the token has expired".into()));
        }
        Ok(Principal::from_claims(answer))
    }
}

impl TokenVerifier for IntrospectionVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(self.introspect(token))
    }
}
