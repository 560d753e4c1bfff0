//! Requests to the token endpoint (authorization code, refresh, client
//! credentials), with the client authentication the registration says.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Deserialize;

use super::discovery::failure;
use super::registration::{AuthMethod, Registration};
use super::{ClientSecret, StoredToken};
use crate::client::ClientError;
use crate::oauth::basic_authorization;
use crate::oauth::metadata::MAX_DOCUMENT_BYTES;
use crate::outbound::{self, fetch};
use crate::redact::RedactedUrl;

/// `client_assertion_type` of a JWT client assertion (RFC 7523).
const JWT_BEARER: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    expires_in: Option<u64>,
    refresh_token: Option<String>,
    scope: Option<String>,
}

/// POSTs `form` to the token endpoint of `issuer`, authenticated as
/// `registration`; `scopes` are what was asked for.
pub(super) async fn request(
    endpoint: &str,
    issuer: &str,
    registration: &Registration,
    mut form: Vec<(&'static str, String)>,
    scopes: &[String],
    timeout: Duration,
) -> Result<StoredToken, ClientError> {
    let credentials = &registration.credentials;
    let mut basic = None;
    match (registration.method, &credentials.secret) {
        (AuthMethod::Basic, ClientSecret::Secret(secret)) => {
            basic = Some(basic_authorization(&credentials.client_id, secret));
        }
        (AuthMethod::Post, ClientSecret::Secret(secret)) => {
            form.push(("client_id", credentials.client_id.clone()));
            form.push(("client_secret", secret.clone()));
        }
        (AuthMethod::PrivateKeyJwt, ClientSecret::PrivateKeyJwt { pem, algorithm }) => {
            form.push(("client_assertion_type", JWT_BEARER.to_owned()));
            form.push((
                "client_assertion",
                assertion(&credentials.client_id, issuer, pem, algorithm)?,
            ));
        }
        _ => form.push(("client_id", credentials.client_id.clone())),
    }
    let uri = endpoint.parse().map_err(|e| {
        let endpoint = RedactedUrl::new(endpoint);
        failure(format!("invalid token endpoint {endpoint}: {e}"))
    })?;
    let client = outbound::client_for(&uri).map_err(ClientError::Connect)?;
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let answer: TokenResponse = fetch::post_form(
        &client,
        endpoint,
        &pairs,
        basic,
        MAX_DOCUMENT_BYTES,
        timeout,
    )
    .await
    .map_err(|e| failure(format!("the token request failed: {e}")))?;
    let granted = answer.scope.map(|scope| {
        scope
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    });
    Ok(StoredToken {
        access_token: answer.access_token,
        refresh_token: answer.refresh_token,
        expires_at: answer.expires_in.map(|seconds| now() + seconds),
        scopes: granted.unwrap_or_else(|| scopes.to_vec()),
        issuer: issuer.to_owned(),
    })
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A client assertion (RFC 7523): `iss` and `sub` the client, `aud` the
/// issuer, valid five minutes, with a fresh `jti`.
#[cfg(feature = "jwt")]
fn assertion(
    client_id: &str,
    issuer: &str,
    pem: &str,
    algorithm: &str,
) -> Result<String, ClientError> {
    use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
    let algorithm: Algorithm = algorithm
        .parse()
        .map_err(|_| failure(format!("unknown JWT algorithm {algorithm}")))?;
    let key = match algorithm {
        Algorithm::ES256 | Algorithm::ES384 => EncodingKey::from_ec_pem(pem.as_bytes()),
        Algorithm::EdDSA => EncodingKey::from_ed_pem(pem.as_bytes()),
        _ => EncodingKey::from_rsa_pem(pem.as_bytes()),
    }
    .map_err(|e| failure(format!("the client's private key is unusable: {e}")))?;
    let now = now();
    let claims = serde_json::json!({
        "iss": client_id,
        "sub": client_id,
        "aud": issuer,
        "iat": now,
        "exp": now + 300,
        "jti": super::pkce::random_token()?,
    });
    encode(&Header::new(algorithm), &claims, &key)
        .map_err(|e| failure(format!("signing the client assertion failed: {e}")))
}

#[cfg(not(feature = "jwt"))]
fn assertion(_: &str, _: &str, _: &str, _: &str) -> Result<String, ClientError> {
    Err(failure(
        "private_key_jwt needs mcp-runtime's `jwt` feature, which this build left out",
    ))
}
