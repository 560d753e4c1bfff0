//! Requests to the token endpoint (authorization code, refresh, client
//! credentials), with the client authentication the registration says.

use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

use super::discovery::failure;
use super::dpop::Binding;
use super::refusal::TokenFailure;
use super::registration::{AuthMethod, Registration};
use super::{ClientSecret, StoredToken};
use crate::client::ClientError;
use crate::lifetime::{MAX_LIFETIME, unix_now};
use crate::oauth::basic_authorization;
use crate::oauth::metadata::MAX_DOCUMENT_BYTES;
use crate::outbound::{self, fetch};
use crate::redact::RedactedUrl;

/// `client_assertion_type` of a JWT client assertion (RFC 7523).
const JWT_BEARER: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    /// `Bearer`, or `DPoP` for a token bound to the proof's key.
    #[serde(default)]
    token_type: Option<String>,
    /// Any JSON: read by [`expires_at`], so that an odd value never fails
    /// the response.
    #[serde(default)]
    expires_in: Value,
    refresh_token: Option<String>,
    scope: Option<String>,
}

/// When a token issued at `now` (Unix seconds) expires by its
/// `expires_in` (RFC 6749 section 5.1: recommended, a number of seconds):
/// a positive number, or a string that holds one (as some servers send
/// it), in whole seconds and at most [`MAX_LIFETIME`]. Anything else
/// (absent, null, zero, negative, not a number) is an unknown lifetime:
/// the token is used until the server refuses it. That costs one token
/// request, where a guessed short lifetime would cost one per guess and
/// throw away tokens that still work.
fn expires_at(expires_in: &Value, now: u64) -> Option<u64> {
    let seconds = match expires_in {
        Value::Number(number) => number.as_f64(),
        Value::String(text) => text.trim().parse::<f64>().ok(),
        _ => None,
    }?;
    // NaN fails the comparison; `as` saturates.
    let lifetime = (seconds >= 1.0).then(|| seconds.min(MAX_LIFETIME.as_secs_f64()) as u64)?;
    Some(now.saturating_add(lifetime))
}

/// POSTs `form` to the token endpoint of `issuer`, authenticated as
/// `registration`; `scopes` are what was asked for. With `dpop`, each
/// request carries a proof of its key, and a refusal that asks for a
/// nonce (`use_dpop_nonce`, RFC 9449 section 8) is answered once with
/// the nonce it gave.
pub(super) async fn request(
    endpoint: &str,
    issuer: &str,
    registration: &Registration,
    form: Vec<(&'static str, String)>,
    scopes: &[String],
    timeout: Duration,
    dpop: Option<&Binding>,
) -> Result<StoredToken, TokenFailure> {
    let uri = endpoint.parse().map_err(|e| {
        let endpoint = RedactedUrl::new(endpoint);
        failure(format!("invalid token endpoint {endpoint}: {e}"))
    })?;
    let client = outbound::client_for(&uri).map_err(ClientError::Connect)?;
    let mut nonce_retried = false;
    let answer: TokenResponse = loop {
        // Authenticated anew each time: a client assertion is used once.
        let (form, basic) = authenticated(form.clone(), registration, issuer)?;
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let proof = dpop.map(|d| d.token_request_proof(endpoint)).transpose()?;
        let answer = fetch::post_oauth_form(
            &client,
            endpoint,
            &pairs,
            basic,
            proof,
            MAX_DOCUMENT_BYTES,
            timeout,
        )
        .await;
        match (answer, dpop) {
            (Err(e), Some(dpop)) if !nonce_retried && dpop.takes_issuer_nonce(&e) => {
                nonce_retried = true;
            }
            (answer, _) => {
                break answer.map_err(|e| {
                    TokenFailure::new(&e, failure(format!("the token request failed: {e}")))
                })?;
            }
        }
    };
    let bound = dpop.and_then(|d| d.bound_key(answer.token_type.as_deref()));
    if bound.is_none()
        && answer
            .token_type
            .as_deref()
            .is_some_and(|t| t.eq_ignore_ascii_case(crate::oauth::dpop::SCHEME))
    {
        return Err(failure(
            "the authorization server issued a DPoP-bound token for a request without a DPoP proof",
        )
        .into());
    }
    let granted = answer.scope.map(|scope| {
        scope
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    });
    let issued_at = unix_now();
    Ok(StoredToken {
        access_token: answer.access_token,
        refresh_token: answer.refresh_token,
        expires_at: expires_at(&answer.expires_in, issued_at),
        issued_at: Some(issued_at),
        scopes: granted.unwrap_or_else(|| scopes.to_vec()),
        issuer: issuer.to_owned(),
        dpop_key: bound,
    })
}

/// A token request's form, with its `Authorization: Basic` header when the
/// client authenticates so.
type Authenticated = (
    Vec<(&'static str, String)>,
    Option<hyper::header::HeaderValue>,
);

/// `form` with the client authentication `registration` says: in the
/// form, or as the header.
fn authenticated(
    mut form: Vec<(&'static str, String)>,
    registration: &Registration,
    issuer: &str,
) -> Result<Authenticated, ClientError> {
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
    Ok((form, basic))
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
    let now = unix_now();
    let claims = serde_json::json!({
        "iss": client_id,
        "sub": client_id,
        "aud": issuer,
        "iat": now,
        "exp": now.saturating_add(300),
        "jti": super::pkce::random_token()?,
    });
    encode(&Header::new(algorithm), &claims, &key)
        .map_err(|e| failure(format!("signing the client assertion failed: {e}")))
}

#[cfg(not(feature = "jwt"))]
fn assertion(_: &str, _: &str, _: &str, _: &str) -> Result<String, ClientError> {
    Err(failure(
        "private_key_jwt needs mcp-toolkit-runtime's `jwt` feature, which this build left out",
    ))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    const NOW: u64 = 1_700_000_000;

    /// `expires_at` of a token response whose `expires_in` is `raw` JSON
    /// text (`None` for no member); `Err` where the response is unreadable.
    fn expiry(raw: Option<&str>) -> Result<Option<u64>, serde_json::Error> {
        let member = raw.map_or(String::new(), |raw| format!(r#","expires_in":{raw}"#));
        let body = format!(r#"{{"access_token":"t","token_type":"Bearer"{member}}}"#);
        let answer: TokenResponse = serde_json::from_str(&body)?;
        Ok(expires_at(&answer.expires_in, NOW))
    }

    #[test]
    fn hostile_lifetimes_are_capped_or_unknown() {
        let year = MAX_LIFETIME.as_secs();
        for (raw, expected) in [
            ("18446744073709551615", Some(NOW + year)),
            ("1e308", Some(NOW + year)),
            ("31536001", Some(NOW + year)),
            ("3600", Some(NOW + 3600)),
            ("3600.9", Some(NOW + 3600)),
            (r#""3600""#, Some(NOW + 3600)),
            (r#"" 60 ""#, Some(NOW + 60)),
            (r#""1e999""#, Some(NOW + year)),
            ("-1", None),
            ("0", None),
            ("0.5", None),
            ("-1e308", None),
            (r#""soon""#, None),
            (r#""NaN""#, None),
            ("null", None),
            ("true", None),
            ("[]", None),
            ("{}", None),
        ] {
            assert_eq!(expiry(Some(raw)).unwrap(), expected, "expires_in: {raw}");
        }
        assert_eq!(expiry(None).unwrap(), None);
    }

    #[test]
    fn the_expiry_saturates_at_the_end_of_time() {
        assert_eq!(expires_at(&json!(60), u64::MAX - 1), Some(u64::MAX));
    }

    /// `expires_in` as JSON text: numbers of every shape and size (beyond
    /// `u64` and `f64` too), strings (numeric or not), and other types.
    fn any_expires_in() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<u64>().prop_map(|n| n.to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            any::<f64>()
                .prop_filter("JSON has no NaN or infinity", |f| f.is_finite())
                .prop_map(|f| format!("{f:e}")),
            "-?[0-9]{1,400}(\\.[0-9]{1,30})?([eE][+-]?[0-9]{1,5})?",
            "\"[ -~]{0,24}\"",
            any::<f64>().prop_map(|f| format!("\"{f}\"")),
            Just("null".to_owned()),
            Just("false".to_owned()),
            Just("[1]".to_owned()),
            Just(r#"{"seconds":1}"#.to_owned()),
        ]
    }

    proptest! {
        #[test]
        fn any_expires_in_gives_a_bounded_expiry_or_a_clean_error(raw in any_expires_in()) {
            // Unreadable JSON (a number beyond f64, say) fails the response
            // with an error; a readable one never panics and never expires
            // before it was issued or after the bound.
            if let Ok(Some(at)) = expiry(Some(&raw)) {
                prop_assert!(at > NOW && at <= NOW + MAX_LIFETIME.as_secs(), "{raw}: {at}");
            }
        }
    }
}
