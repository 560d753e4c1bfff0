//! Checking a DPoP proof as RFC 9449 section 4.3 lists the checks: what a
//! protected resource (or a token endpoint) does with the `DPoP` header of
//! a request before it trusts the key the proof names.
//!
//! The proof comes from the peer, key and all: everything is bounded, read
//! as JSON before any of it is interpreted, and checked without a panic or
//! an overflow whatever it holds. The error never repeats the proof or
//! the token.

use std::fmt;
use std::str::FromStr;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};

use super::{ALGORITHMS, PROOF_TYPE, access_token_hash, target_uri, thumbprint};

#[cfg(any(test, feature = "fuzzing"))]
pub(crate) mod test_proofs;

/// The longest proof read: room for an RSA key of 8192 bits (the most the
/// signature check takes) and its signature, with claims to spare.
pub const MAX_PROOF_BYTES: usize = 8 * 1024;

/// The longest `jti` taken; a random identifier needs far less.
pub const MAX_JTI_BYTES: usize = 256;

/// How old a proof may be by default: five minutes.
pub const DEFAULT_MAX_AGE_SECS: u64 = 300;

/// How far a proof's `iat` may lie in the future, for clocks a little
/// ahead of this one.
pub const MAX_CLOCK_SKEW_SECS: u64 = 30;

/// Members of a JWK that only a private key has (RFC 7518 section 6): a
/// proof that carries one has leaked its key, and `k` is a shared secret.
const PRIVATE_MEMBERS: &[&str] = &["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/// The request a proof must match, as this server sees it.
#[derive(Debug, Clone, Copy)]
pub struct ProofRequest<'a> {
    /// The HTTP method, such as `POST`; `htm` must equal it.
    pub method: &'a str,
    /// The request's URL as this server names itself (its canonical
    /// resource, or its token endpoint); `htu` must equal it once both are
    /// normalized by [`target_uri`].
    pub url: &'a str,
    /// The access token sent with the proof, whose hash `ath` must be;
    /// `None` at a token endpoint.
    pub access_token: Option<&'a str>,
    /// The `alg`s accepted, a subset of [`ALGORITHMS`].
    pub algorithms: &'a [&'a str],
    /// Now, in seconds since the Unix epoch.
    pub now: u64,
    /// How many seconds before `now` the proof's `iat` may be.
    pub max_age: u64,
    /// How many seconds after `now` the proof's `iat` may be.
    pub max_skew: u64,
    /// The nonces accepted; empty when the server asks for none.
    pub nonces: &'a [&'a str],
}

impl<'a> ProofRequest<'a> {
    /// A `method` request to `url` at `now`, without a token or nonce,
    /// taking every algorithm of [`ALGORITHMS`] and the default age window.
    pub fn new(method: &'a str, url: &'a str, now: u64) -> Self {
        ProofRequest {
            method,
            url,
            access_token: None,
            algorithms: ALGORITHMS,
            now,
            max_age: DEFAULT_MAX_AGE_SECS,
            max_skew: MAX_CLOCK_SKEW_SECS,
            nonces: &[],
        }
    }
}

/// A proof that passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckedProof {
    /// The JWK SHA-256 thumbprint of the proof's key: what a bound token's
    /// `cnf.jkt` must hold.
    pub thumbprint: String,
    /// The proof's identifier, to be seen once.
    pub jti: String,
    /// When the proof was made (its `iat`, rounded down).
    pub iat: u64,
    /// The nonce the proof carried, if any.
    pub nonce: Option<String>,
}

/// Why a proof was refused. The text names the check that failed and
/// never repeats the proof or the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProofError {
    /// The request has no `DPoP` header.
    Missing,
    /// The request has more than one `DPoP` header.
    Repeated,
    /// The proof is longer than [`MAX_PROOF_BYTES`].
    TooLarge,
    /// The proof is not a compact JWS whose header and claims are JSON
    /// objects.
    Malformed,
    /// The header's `typ` is not `dpop+jwt`.
    Type,
    /// The header's `alg` is not one this server accepts.
    Algorithm,
    /// The header's `jwk` is missing, not a public key this server reads,
    /// or not a key for `alg`.
    Key,
    /// The header's `jwk` holds a private key.
    PrivateKey,
    /// The signature does not verify with the header's key.
    Signature,
    /// `jti` is missing, not a string, empty or too long.
    Jti,
    /// `htm` is not the request's method.
    Method,
    /// `htu` is not the request's URL.
    Url,
    /// `iat` is missing, not a number, or outside the accepted window.
    IssuedAt,
    /// `ath` is missing or not the hash of the request's access token.
    TokenHash,
    /// `nonce` is missing or not one the server gave: the client should
    /// retry with the server's nonce (`use_dpop_nonce`).
    Nonce,
}

impl ProofError {
    /// Whether the proof lacks the server's nonce, which the server
    /// answers with `use_dpop_nonce` rather than `invalid_dpop_proof`.
    pub fn is_nonce(&self) -> bool {
        matches!(self, ProofError::Nonce)
    }
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProofError::Missing => "the request has no DPoP proof",
            ProofError::Repeated => "the request has more than one DPoP header",
            ProofError::TooLarge => "the DPoP proof is too long",
            ProofError::Malformed => "the DPoP proof is not a well-formed JWT",
            ProofError::Type => "the DPoP proof's typ is not dpop+jwt",
            ProofError::Algorithm => "the DPoP proof's alg is not accepted",
            ProofError::Key => "the DPoP proof's jwk is not a usable public key for its alg",
            ProofError::PrivateKey => "the DPoP proof's jwk holds a private key",
            ProofError::Signature => "the DPoP proof's signature does not verify",
            ProofError::Jti => "the DPoP proof's jti is missing or malformed",
            ProofError::Method => "the DPoP proof's htm is not the request's method",
            ProofError::Url => "the DPoP proof's htu is not the request's URL",
            ProofError::IssuedAt => "the DPoP proof's iat is missing or too old or too new",
            ProofError::TokenHash => "the DPoP proof's ath does not match the access token",
            ProofError::Nonce => "the DPoP proof lacks the server's current nonce",
        })
    }
}

impl std::error::Error for ProofError {}

/// Checks the proof in `values` (every `DPoP` header of the request:
/// exactly one is accepted) against `request`.
///
/// Does not remember the `jti`: refusing a replay is the caller's part,
/// once it trusts the request (see
/// [`DpopPolicy`](crate::server::auth::DpopPolicy)).
pub fn check_proof<'v>(
    values: impl IntoIterator<Item = &'v [u8]>,
    request: &ProofRequest<'_>,
) -> Result<CheckedProof, ProofError> {
    let mut values = values.into_iter();
    let proof = values.next().ok_or(ProofError::Missing)?;
    if values.next().is_some() {
        return Err(ProofError::Repeated);
    }
    if proof.len() > MAX_PROOF_BYTES {
        return Err(ProofError::TooLarge);
    }
    let proof = std::str::from_utf8(proof).map_err(|_| ProofError::Malformed)?;
    let header = header_part(proof).ok_or(ProofError::Malformed)?;
    let header = json_object(header)?;
    let (algorithm, jwk) = check_header(&header, request.algorithms)?;
    let claims = verify(proof, &jwk, algorithm)?;
    let thumbprint = thumbprint(&jwk).ok_or(ProofError::Key)?;
    let jti = check_claims(&claims, request)?;
    let iat = check_iat(claims.get("iat"), request)?;
    let nonce = claims.get("nonce").and_then(Value::as_str);
    if !request.nonces.is_empty() && !nonce.is_some_and(|n| request.nonces.contains(&n)) {
        return Err(ProofError::Nonce);
    }
    Ok(CheckedProof {
        thumbprint,
        jti: jti.to_owned(),
        iat,
        nonce: nonce.map(str::to_owned),
    })
}

/// The header of a compact JWS: the first of exactly three parts.
fn header_part(proof: &str) -> Option<&str> {
    let parts: Vec<&str> = proof.splitn(4, '.').collect();
    let [header, _claims, _signature] = parts.try_into().ok()?;
    Some(header)
}

/// A Base64url part of the JWS read as a JSON object.
fn json_object(part: &str) -> Result<Map<String, Value>, ProofError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|_| ProofError::Malformed)?;
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(object)) => Ok(object),
        _ => Err(ProofError::Malformed),
    }
}

/// `typ`, `alg` and `jwk`: the algorithm and the public key to verify with.
fn check_header(
    header: &Map<String, Value>,
    accepted: &[&str],
) -> Result<(Algorithm, Jwk), ProofError> {
    if header.get("typ").and_then(Value::as_str) != Some(PROOF_TYPE) {
        return Err(ProofError::Type);
    }
    // Only names of ALGORITHMS: never `none` or a MAC, whatever `accepted` says.
    let name = header
        .get("alg")
        .and_then(Value::as_str)
        .filter(|alg| ALGORITHMS.contains(alg) && accepted.contains(alg))
        .ok_or(ProofError::Algorithm)?;
    let algorithm = Algorithm::from_str(name).map_err(|_| ProofError::Algorithm)?;
    let Some(Value::Object(jwk)) = header.get("jwk") else {
        return Err(ProofError::Key);
    };
    if PRIVATE_MEMBERS
        .iter()
        .any(|member| jwk.contains_key(*member))
    {
        return Err(ProofError::PrivateKey);
    }
    let jwk = <Jwk as serde::Deserialize>::deserialize(jwk).map_err(|_| ProofError::Key)?;
    if !fits(&jwk, algorithm) {
        return Err(ProofError::Key);
    }
    Ok((algorithm, jwk))
}

/// Whether `jwk` is a key of the kind (and curve) `algorithm` signs with.
fn fits(jwk: &Jwk, algorithm: Algorithm) -> bool {
    match &jwk.algorithm {
        AlgorithmParameters::EllipticCurve(ec) => matches!(
            (algorithm, &ec.curve),
            (Algorithm::ES256, EllipticCurve::P256) | (Algorithm::ES384, EllipticCurve::P384)
        ),
        AlgorithmParameters::RSA(_) => matches!(
            algorithm,
            Algorithm::RS256
                | Algorithm::RS384
                | Algorithm::RS512
                | Algorithm::PS256
                | Algorithm::PS384
                | Algorithm::PS512
        ),
        AlgorithmParameters::OctetKeyPair(okp) => {
            algorithm == Algorithm::EdDSA && okp.curve == EllipticCurve::Ed25519
        }
        // `oct` (a shared secret) and kinds this crate does not know.
        _ => false,
    }
}

/// The claims of `proof`, once its signature verifies with `jwk`.
fn verify(proof: &str, jwk: &Jwk, algorithm: Algorithm) -> Result<Map<String, Value>, ProofError> {
    let key = DecodingKey::from_jwk(jwk).map_err(|_| ProofError::Key)?;
    // The signature only: a proof has no exp, aud or iss; its own claims
    // are checked below, against this request.
    let mut validation = Validation::new(algorithm);
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_nbf = false;
    validation.validate_aud = false;
    validation.leeway = 0;
    match jsonwebtoken::decode::<Map<String, Value>>(proof, &key, &validation) {
        Ok(data) => Ok(data.claims),
        Err(error) => Err(match error.kind() {
            ErrorKind::InvalidSignature => ProofError::Signature,
            ErrorKind::InvalidEcdsaKey
            | ErrorKind::InvalidEddsaKey
            | ErrorKind::InvalidRsaKey(_)
            | ErrorKind::InvalidKeyFormat => ProofError::Key,
            ErrorKind::InvalidAlgorithm | ErrorKind::UnsupportedAlgorithm => ProofError::Algorithm,
            _ => ProofError::Malformed,
        }),
    }
}

/// `jti`, `htm`, `htu` and `ath`; returns the `jti`.
fn check_claims<'c>(
    claims: &'c Map<String, Value>,
    request: &ProofRequest<'_>,
) -> Result<&'c str, ProofError> {
    let text = |name: &str| claims.get(name).and_then(Value::as_str);
    let jti = text("jti")
        .filter(|jti| !jti.is_empty() && jti.len() <= MAX_JTI_BYTES)
        .ok_or(ProofError::Jti)?;
    if text("htm") != Some(request.method) {
        return Err(ProofError::Method);
    }
    let htu = text("htu").and_then(target_uri);
    if htu.is_none() || htu != target_uri(request.url) {
        return Err(ProofError::Url);
    }
    if let Some(token) = request.access_token
        && text("ath") != Some(access_token_hash(token).as_str())
    {
        return Err(ProofError::TokenHash);
    }
    Ok(jti)
}

/// `iat` within `max_age` before now and `max_skew` after it, compared as
/// floating point: a peer's number may be anything JSON holds.
fn check_iat(iat: Option<&Value>, request: &ProofRequest<'_>) -> Result<u64, ProofError> {
    let iat = iat.and_then(Value::as_f64).ok_or(ProofError::IssuedAt)?;
    let earliest = request.now.saturating_sub(request.max_age) as f64;
    let latest = request.now.saturating_add(request.max_skew) as f64;
    if !(earliest..=latest).contains(&iat) {
        return Err(ProofError::IssuedAt);
    }
    // Within the window, so non-negative and finite: the cast is exact
    // but for the fraction it drops.
    Ok(iat as u64)
}

#[cfg(test)]
mod tests;
