//! JWT access tokens (RFC 9068) verified against the issuer's published
//! keys: the issuer's metadata (RFC 8414, or OpenID Connect discovery)
//! names its JWKS; keys are cached and fetched again for an unknown `kid`,
//! at most once per refresh interval, so a flood of made-up key ids costs
//! no more than one fetch.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey, Validation, decode, decode_header};
use serde_json::{Map, Value};

use super::verifier::VerifyFuture;
use super::{AuthSetupError, Principal, TokenError, TokenVerifier, check_issuer_url};
use crate::oauth::metadata::{
    AuthorizationServerMetadata, MAX_DOCUMENT_BYTES, authorization_server_metadata_urls,
};
use crate::outbound::{self, HttpClient, fetch};
use crate::sync::lock;

/// The longest token looked at.
const MAX_TOKEN_BYTES: usize = 16 * 1024;
/// The most keys kept from one key set.
const MAX_KEYS: usize = 64;
/// The asymmetric algorithms accepted unless configured otherwise. HMAC
/// is never accepted: a resource server holds no shared secret.
const DEFAULT_ALGORITHMS: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Verifies JWT access tokens issued by one authorization server for this
/// resource: the signature with the issuer's published keys, `iss` exactly,
/// `aud` containing this server's resource URL (RFC 8707), `exp` and `nbf`
/// with a small leeway. Only asymmetric algorithms are accepted (never
/// `none`, never HMAC), and only the one a key declares.
///
/// ```no_run
/// use mcp_toolkit_runtime::server::auth::JwtVerifier;
///
/// let verifier = JwtVerifier::new("https://auth.example.com", "https://mcp.example.com/mcp")?;
/// # Ok::<(), mcp_toolkit_runtime::server::auth::AuthSetupError>(())
/// ```
#[derive(Clone)]
pub struct JwtVerifier {
    issuer: String,
    audience: String,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    refresh_interval: Duration,
    timeout: Duration,
    client: HttpClient,
    /// Shared by clones.
    keys: Arc<KeyState>,
}

#[derive(Default)]
struct KeyState {
    /// Configured, or found in the issuer's metadata on first use.
    jwks_uri: Mutex<Option<String>>,
    keys: Mutex<Vec<Jwk>>,
    /// Serializes fetches and remembers the last one.
    refresh: tokio::sync::Mutex<Refresh>,
}

#[derive(Default)]
struct Refresh {
    last: Option<Instant>,
    error: Option<String>,
}

impl JwtVerifier {
    /// Accepts tokens from `issuer` (an `https://` URL, or `http://` on a
    /// loopback host) whose audience includes `audience`, this server's
    /// canonical resource URL.
    pub fn new(issuer: &str, audience: &str) -> Result<Self, AuthSetupError> {
        check_issuer_url(issuer)?;
        if audience.is_empty() {
            return Err(AuthSetupError::new("the audience must not be empty"));
        }
        let uri = issuer.parse().map_err(|e| {
            let issuer = crate::redact::RedactedUrl::new(issuer);
            AuthSetupError::new(format!("invalid issuer URL {issuer}: {e}"))
        })?;
        // An https:// issuer loads the trusted roots now, once.
        let client = outbound::client_for(&uri).map_err(|e| AuthSetupError::new(e.to_string()))?;
        Ok(JwtVerifier {
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
            leeway: Duration::from_secs(5),
            refresh_interval: Duration::from_secs(30),
            timeout: Duration::from_secs(10),
            client,
            keys: Arc::default(),
        })
    }

    /// Uses this key set URL instead of the one in the issuer's metadata.
    pub fn jwks_uri(self, uri: &str) -> Result<Self, AuthSetupError> {
        check_issuer_url(uri)?;
        *lock(&self.keys.jwks_uri) = Some(uri.to_owned());
        Ok(self)
    }

    /// Accepts only these algorithms (`RS256`, `ES256`, `EdDSA`...); HMAC
    /// and unknown names are refused.
    pub fn algorithms(mut self, names: &[&str]) -> Result<Self, AuthSetupError> {
        let mut algorithms = Vec::new();
        for name in names {
            let algorithm: Algorithm = name
                .parse()
                .map_err(|_| AuthSetupError::new(format!("unknown JWT algorithm {name}")))?;
            if algorithm.family() == AlgorithmFamily::Hmac {
                return Err(AuthSetupError::new(format!(
                    "{name} needs a shared secret; a resource server accepts only asymmetric signatures"
                )));
            }
            algorithms.push(algorithm);
        }
        if algorithms.is_empty() {
            return Err(AuthSetupError::new("no algorithm given"));
        }
        self.algorithms = algorithms;
        Ok(self)
    }

    /// How far `exp` and `nbf` may be off, for clocks that disagree a
    /// little (default 5 s).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The shortest time between two fetches of the key set (default 30 s).
    pub fn refresh_interval(mut self, interval: Duration) -> Self {
        self.refresh_interval = interval;
        self
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(self.verify_jwt(token))
    }
}

impl JwtVerifier {
    async fn verify_jwt(&self, token: &str) -> Result<Principal, TokenError> {
        if token.len() > MAX_TOKEN_BYTES {
            return Err(invalid(format!("longer than {MAX_TOKEN_BYTES} bytes")));
        }
        let header =
            decode_header(token).map_err(|e| invalid(format!("unreadable JWT header: {e}")))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(invalid(format!(
                "algorithm {:?} is not accepted",
                header.alg
            )));
        }
        let jwk = self.key(header.kid.as_deref(), header.alg).await?;
        let key = DecodingKey::from_jwk(&jwk).map_err(|e| invalid(format!("unusable key: {e}")))?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.validate_nbf = true;
        validation.leeway = self.leeway.as_secs();
        let data = decode::<Map<String, Value>>(token, &key, &validation)
            .map_err(|e| invalid(describe(&e)))?;
        Ok(Principal::from_claims(data.claims))
    }

    /// The key that signed a token with `kid` and `alg`, fetching the key
    /// set again when it is unknown and the last fetch is old enough.
    async fn key(&self, kid: Option<&str>, alg: Algorithm) -> Result<Jwk, TokenError> {
        if let Some(jwk) = self.cached(kid, alg) {
            return Ok(jwk);
        }
        let mut refresh = self.keys.refresh.lock().await;
        // Another request may have fetched while this one waited.
        if let Some(jwk) = self.cached(kid, alg) {
            return Ok(jwk);
        }
        let recent = refresh
            .last
            .is_some_and(|last| last.elapsed() < self.refresh_interval);
        if recent {
            return Err(match &refresh.error {
                Some(error) => TokenError::Unavailable(error.clone()),
                None => invalid(unknown_key(kid)),
            });
        }
        refresh.last = Some(Instant::now());
        match self.fetch_keys().await {
            Ok(keys) => {
                refresh.error = None;
                *lock(&self.keys.keys) = keys;
            }
            Err(error) => {
                let issuer = crate::redact::RedactedUrl::new(&self.issuer);
                tracing::warn!(%issuer, %error, "fetching the issuer's keys failed");
                refresh.error = Some(error.clone());
                return Err(TokenError::Unavailable(error));
            }
        }
        self.cached(kid, alg)
            .ok_or_else(|| invalid(unknown_key(kid)))
    }

    /// A cached key for `kid` (or the only one that fits, without a `kid`)
    /// whose type and declared algorithm fit `alg`.
    fn cached(&self, kid: Option<&str>, alg: Algorithm) -> Option<Jwk> {
        let keys = lock(&self.keys.keys);
        let mut fitting = keys.iter().filter(|jwk| {
            kid.is_none_or(|kid| jwk.common.key_id.as_deref() == Some(kid)) && fits(jwk, alg)
        });
        let first = fitting.next()?;
        match (kid, fitting.next()) {
            // Without a kid, more than one candidate is ambiguous.
            (None, Some(_)) => None,
            _ => Some(first.clone()),
        }
    }

    async fn fetch_keys(&self) -> Result<Vec<Jwk>, String> {
        let configured = lock(&self.keys.jwks_uri).clone();
        let jwks_uri = match configured {
            Some(uri) => uri,
            None => {
                let uri = self.discover_jwks_uri().await?;
                *lock(&self.keys.jwks_uri) = Some(uri.clone());
                uri
            }
        };
        let set: Value =
            fetch::get_json(&self.client, &jwks_uri, MAX_DOCUMENT_BYTES, self.timeout).await?;
        let shown = crate::redact::RedactedUrl::new(&jwks_uri);
        let Some(keys) = set.get("keys").and_then(Value::as_array) else {
            return Err(format!("{shown} is not a JWK set (no `keys` array)"));
        };
        // Keys that are not public signing keys (symmetric, of unknown
        // kinds, unreadable) are skipped, not fatal.
        let keys: Vec<Jwk> = keys
            .iter()
            .take(MAX_KEYS)
            .filter_map(|key| <Jwk as serde::Deserialize>::deserialize(key).ok())
            .filter(|jwk| {
                matches!(
                    jwk.algorithm,
                    AlgorithmParameters::RSA(_)
                        | AlgorithmParameters::EllipticCurve(_)
                        | AlgorithmParameters::OctetKeyPair(_)
                )
            })
            .collect();
        if keys.is_empty() {
            return Err(format!("{shown} holds no usable key"));
        }
        Ok(keys)
    }

    /// The issuer's `jwks_uri`, from the first metadata document found at
    /// the well-known URLs, whose `issuer` must equal ours exactly.
    async fn discover_jwks_uri(&self) -> Result<String, String> {
        let urls = authorization_server_metadata_urls(&self.issuer).ok_or_else(|| {
            format!(
                "invalid issuer URL {}",
                crate::redact::RedactedUrl::new(&self.issuer)
            )
        })?;
        let mut failures = Vec::new();
        for url in urls {
            let shown = crate::redact::RedactedUrl::new(&url);
            let metadata: AuthorizationServerMetadata =
                match fetch::get_json(&self.client, &url, MAX_DOCUMENT_BYTES, self.timeout).await {
                    Ok(metadata) => metadata,
                    Err(error) => {
                        failures.push(error);
                        continue;
                    }
                };
            if metadata.issuer != self.issuer {
                return Err(format!(
                    "the metadata at {shown} names the issuer {:?}, not {:?}",
                    crate::redact::RedactedUrl::new(&metadata.issuer),
                    crate::redact::RedactedUrl::new(&self.issuer)
                ));
            }
            let jwks_uri = metadata
                .jwks_uri
                .ok_or_else(|| format!("the metadata at {shown} has no jwks_uri"))?;
            check_issuer_url(&jwks_uri).map_err(|e| {
                format!(
                    "jwks_uri {}: {e}",
                    crate::redact::RedactedUrl::new(&jwks_uri)
                )
            })?;
            return Ok(jwks_uri);
        }
        Err(format!(
            "no metadata for the issuer {}: {}",
            crate::redact::RedactedUrl::new(&self.issuer),
            failures.join("; ")
        ))
    }
}

/// Whether `jwk` can verify a signature made with `alg`: a signing key of
/// the algorithm's family, declaring that algorithm or none.
fn fits(jwk: &Jwk, alg: Algorithm) -> bool {
    if jwk.common.public_key_use == Some(PublicKeyUse::Encryption) {
        return false;
    }
    if jwk
        .common
        .key_algorithm
        .is_some_and(|declared| declared != KeyAlgorithm::from(alg))
    {
        return false;
    }
    matches!(
        (&jwk.algorithm, alg.family()),
        (AlgorithmParameters::RSA(_), AlgorithmFamily::Rsa)
            | (AlgorithmParameters::EllipticCurve(_), AlgorithmFamily::Ec)
            | (AlgorithmParameters::OctetKeyPair(_), AlgorithmFamily::Ed)
    )
}

fn invalid(why: impl Into<String>) -> TokenError {
    TokenError::Invalid(why.into())
}

fn unknown_key(kid: Option<&str>) -> String {
    match kid {
        Some(kid) => format!("signed with a key the issuer does not publish (kid {kid:?})"),
        None => "no kid, and the issuer publishes no single key that fits".to_owned(),
    }
}

/// A validation failure in words a client developer understands.
fn describe(error: &jsonwebtoken::errors::Error) -> String {
    use jsonwebtoken::errors::ErrorKind;
    match error.kind() {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".into(),
        ErrorKind::InvalidAudience => "the token is for another audience".into(),
        ErrorKind::InvalidIssuer => "the token is from another issuer".into(),
        ErrorKind::InvalidSignature => "the signature does not verify".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        _ => format!("the token does not verify: {error}"),
    }
}
