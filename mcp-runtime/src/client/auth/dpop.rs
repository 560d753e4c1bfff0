//! The client's side of DPoP (RFC 9449): its own key pair, made once per
//! server and kept with the token it binds, and the proofs it signs with
//! it, one per token request and per request that carries a bound token.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey};

use super::discovery::failure;
use super::pkce::random_token;
use super::store::StoredDpopKey;
use crate::client::ClientError;
use crate::lifetime::unix_now;
use crate::oauth::dpop::{
    PROOF_TYPE, SCHEME, USE_NONCE, access_token_hash, target_uri, thumbprint,
};
use crate::oauth::metadata::AuthorizationServerMetadata;
use crate::sync::lock;

/// The algorithms this client signs proofs with, in the order it prefers
/// them: ES256, which RFC 9449 names first and every DPoP server takes,
/// then EdDSA (Ed25519) for a server that takes only that.
const ALGORITHMS: [&str; 2] = ["ES256", "EdDSA"];

/// A DPoP key pair. Its private half never leaves: not in `Debug`, not in
/// errors; only the store keeps it (PKCS#8, in a file only the owner reads).
#[derive(Clone)]
struct DpopKey {
    algorithm: Algorithm,
    key: EncodingKey,
    jwk: Jwk,
    stored: StoredDpopKey,
}

impl std::fmt::Debug for DpopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DpopKey")
            .field("algorithm", &self.algorithm)
            .field("thumbprint", &thumbprint(&self.jwk))
            .finish_non_exhaustive()
    }
}

/// The algorithm to sign proofs with for the authorization server
/// `metadata` describes: the first of [`ALGORITHMS`] it lists in
/// `dpop_signing_alg_values_supported`; `None` where it offers no DPoP
/// this client can do (its tokens are then bearer tokens).
pub(crate) fn offered(metadata: &AuthorizationServerMetadata) -> Option<&'static str> {
    let listed = metadata
        .extra
        .get("dpop_signing_alg_values_supported")
        .and_then(serde_json::Value::as_array)?;
    ALGORITHMS
        .into_iter()
        .find(|ours| listed.iter().any(|alg| alg == ours))
}

impl DpopKey {
    /// A new key for `algorithm` (one of [`ALGORITHMS`]) from the OS's
    /// randomness.
    fn generate(algorithm: &str) -> Result<Self, ClientError> {
        let mut secret = zeroize::Zeroizing::new([0u8; 32]);
        // A P-256 scalar at or past the group order is rejected; the chance
        // is about 2^-128, so a second draw is a formality.
        for _ in 0..4 {
            getrandom::fill(secret.as_mut())
                .map_err(|e| failure(format!("no randomness for a DPoP key: {e}")))?;
            let der = match algorithm {
                "EdDSA" => ed25519::pkcs8::KeypairBytes {
                    secret_key: *secret,
                    public_key: None,
                }
                .to_pkcs8_der(),
                _ => match p256::SecretKey::from_slice(secret.as_ref()) {
                    Ok(key) => key.to_pkcs8_der(),
                    Err(_) => continue,
                },
            }
            .map_err(|e| failure(format!("encoding the DPoP key failed: {e}")))?;
            let stored = StoredDpopKey {
                algorithm: algorithm.to_owned(),
                pkcs8: STANDARD.encode(der.as_bytes()),
            };
            return DpopKey::from_stored(&stored);
        }
        Err(failure("no usable DPoP key could be drawn"))
    }

    /// The key a store kept.
    fn from_stored(stored: &StoredDpopKey) -> Result<Self, ClientError> {
        let der = zeroize::Zeroizing::new(
            STANDARD
                .decode(&stored.pkcs8)
                .map_err(|_| failure("the stored DPoP key is not Base64"))?,
        );
        // The encoding keys do not parse; reading the key here makes a
        // broken one fail now, not at the first proof.
        let (algorithm, key) = match stored.algorithm.as_str() {
            "ES256" => {
                p256::SecretKey::from_pkcs8_der(&der)
                    .map_err(|_| failure("the stored DPoP key is not a P-256 PKCS#8 key"))?;
                (Algorithm::ES256, EncodingKey::from_ec_der(&der))
            }
            "EdDSA" => {
                ed25519::pkcs8::KeypairBytes::from_pkcs8_der(&der)
                    .map_err(|_| failure("the stored DPoP key is not an Ed25519 PKCS#8 key"))?;
                (Algorithm::EdDSA, EncodingKey::from_ed_der(&der))
            }
            other => {
                return Err(failure(format!(
                    "the stored DPoP key is for {other}, which this client does not sign with"
                )));
            }
        };
        let mut jwk = Jwk::from_encoding_key(&key, algorithm)
            .map_err(|e| failure(format!("the DPoP key has no public JWK: {e}")))?;
        // The header's `jwk` is the bare public key.
        jwk.common = Default::default();
        Ok(DpopKey {
            algorithm,
            key,
            jwk,
            stored: stored.clone(),
        })
    }

    /// What a store keeps of this key.
    fn stored(&self) -> &StoredDpopKey {
        &self.stored
    }

    /// A proof for a `method` request to `url` (its query and fragment
    /// left out), for `access_token` when the request carries one, with
    /// the server's `nonce` when it gave one.
    fn proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, ClientError> {
        let htu = target_uri(url).ok_or_else(|| {
            failure(format!(
                "{} is no URL a DPoP proof can name",
                crate::redact::RedactedUrl::new(url)
            ))
        })?;
        let mut claims = serde_json::json!({
            "jti": random_token()?,
            "htm": method,
            "htu": htu,
            "iat": unix_now(),
        });
        if let Some(token) = access_token {
            claims["ath"] = access_token_hash(token).into();
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = nonce.into();
        }
        let mut header = Header::new(self.algorithm);
        header.typ = Some(PROOF_TYPE.to_owned());
        header.jwk = Some(self.jwk.clone());
        jsonwebtoken::encode(&header, &claims, &self.key)
            .map_err(|e| failure(format!("signing a DPoP proof failed: {e}")))
    }
}

/// A session's DPoP state: the key its tokens are bound to, and the last
/// nonce each server gave (the authorization server's and the MCP
/// server's are separate, RFC 9449 sections 8 and 9).
pub(crate) struct Binding {
    key: DpopKey,
    issuer_nonce: std::sync::Mutex<Option<String>>,
    resource_nonce: std::sync::Mutex<Option<String>>,
}

impl Binding {
    /// A binding to a new key for `algorithm` (as [`offered`] chose it).
    pub(crate) fn generate(algorithm: &str) -> Result<Self, ClientError> {
        Ok(Binding::new(DpopKey::generate(algorithm)?))
    }

    /// The algorithm of its proofs.
    pub(crate) fn algorithm(&self) -> &str {
        &self.key.stored().algorithm
    }

    /// A binding to the key a store kept with a token.
    pub(crate) fn from_stored(stored: &StoredDpopKey) -> Result<Self, ClientError> {
        Ok(Binding::new(DpopKey::from_stored(stored)?))
    }

    fn new(key: DpopKey) -> Self {
        Binding {
            key,
            issuer_nonce: Default::default(),
            resource_nonce: Default::default(),
        }
    }

    /// Whether this binding's key is `stored`.
    pub(crate) fn holds(&self, stored: &StoredDpopKey) -> bool {
        self.key.stored() == stored
    }

    /// The `DPoP` header of a token request to `endpoint`.
    pub(crate) fn token_request_proof(
        &self,
        endpoint: &str,
    ) -> Result<hyper::header::HeaderValue, ClientError> {
        let nonce = lock(&self.issuer_nonce).clone();
        header(self.key.proof("POST", endpoint, None, nonce.as_deref())?)
    }

    /// The `DPoP` header of a `method` request to the MCP server at `url`
    /// that carries `access_token`.
    pub(crate) fn resource_proof(
        &self,
        method: &str,
        url: &str,
        access_token: &str,
    ) -> Result<hyper::header::HeaderValue, ClientError> {
        let nonce = lock(&self.resource_nonce).clone();
        header(
            self.key
                .proof(method, url, Some(access_token), nonce.as_deref())?,
        )
    }

    /// Keeps the nonce of a token refusal that asks for one; whether it did.
    pub(crate) fn takes_issuer_nonce(&self, refusal: &crate::outbound::fetch::Failure) -> bool {
        match (&refusal.oauth_error, &refusal.dpop_nonce) {
            (Some(error), Some(nonce)) if error == USE_NONCE => {
                *lock(&self.issuer_nonce) = Some(nonce.clone());
                true
            }
            _ => false,
        }
    }

    /// Keeps a nonce the MCP server sent.
    pub(crate) fn takes_resource_nonce(&self, nonce: &str) {
        *lock(&self.resource_nonce) = Some(nonce.to_owned());
    }

    /// The key to keep with a token of `token_type`: this one when the
    /// server bound the token to it (`DPoP`), none for a bearer token.
    pub(crate) fn bound_key(&self, token_type: Option<&str>) -> Option<StoredDpopKey> {
        token_type
            .is_some_and(|t| t.eq_ignore_ascii_case(SCHEME))
            .then(|| self.key.stored().clone())
    }
}

fn header(proof: String) -> Result<hyper::header::HeaderValue, ClientError> {
    let mut value = hyper::header::HeaderValue::try_from(proof)
        .map_err(|_| failure("a DPoP proof is not a header value"))?;
    value.set_sensitive(true);
    Ok(value)
}

#[cfg(test)]
mod tests {
    use jsonwebtoken::{DecodingKey, Validation, decode, decode_header};
    use proptest::prelude::*;
    use serde_json::Value;

    use super::*;

    /// The header and the claims of `proof`, once its signature checks
    /// against the `jwk` in its own header.
    fn opened(proof: &str) -> (Header, Value) {
        let header = decode_header(proof).unwrap();
        let key = DecodingKey::from_jwk(header.jwk.as_ref().unwrap()).unwrap();
        let mut validation = Validation::new(header.alg);
        validation.required_spec_claims.clear();
        validation.validate_exp = false;
        let claims = decode::<Value>(proof, &key, &validation).unwrap().claims;
        (header, claims)
    }

    fn raw_header(proof: &str) -> Value {
        let part = proof.split('.').next().unwrap();
        serde_json::from_slice(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(part)
                .unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn the_key_stays_out_of_debug_and_survives_the_store() {
        for algorithm in ALGORITHMS {
            key_round_trip(algorithm);
        }
    }

    fn key_round_trip(algorithm: &str) {
        let key = DpopKey::generate(algorithm).unwrap();
        let stored = key.stored().clone();
        for shown in [format!("{key:?}"), format!("{stored:?}")] {
            assert!(!shown.contains(&stored.pkcs8), "{shown}");
        }
        // The same key read back signs proofs with the same public key.
        let again = DpopKey::from_stored(&stored).unwrap();
        assert_eq!(thumbprint(&again.jwk), thumbprint(&key.jwk));
        let json = serde_json::to_string(&stored).unwrap();
        let read: StoredDpopKey = serde_json::from_str(&json).unwrap();
        assert_eq!(read, stored);
    }

    #[test]
    fn a_broken_stored_key_is_refused_without_showing_it() {
        let p256 = DpopKey::generate("ES256").unwrap().stored().pkcs8.clone();
        for (algorithm, pkcs8) in [
            ("ES256", "not base64!"),
            ("ES256", "AAAA"),
            ("EdDSA", "AAAA"),
            // A P-256 key named as Ed25519.
            ("EdDSA", p256.as_str()),
            ("RS256", "AAAA"),
        ] {
            let stored = StoredDpopKey {
                algorithm: algorithm.into(),
                pkcs8: pkcs8.into(),
            };
            let error = DpopKey::from_stored(&stored).unwrap_err().to_string();
            assert!(!error.contains(pkcs8), "{error}");
        }
    }

    #[test]
    fn es256_is_preferred_then_eddsa_and_nothing_else_is_taken() {
        let metadata = |extra: Value| -> AuthorizationServerMetadata {
            let mut document = serde_json::json!({"issuer": "https://as"});
            if !extra.is_null() {
                document["dpop_signing_alg_values_supported"] = extra;
            }
            serde_json::from_value(document).unwrap()
        };
        let choice = |algs: Value| offered(&metadata(algs));
        assert_eq!(choice(serde_json::json!(["RS256", "ES256"])), Some("ES256"));
        assert_eq!(choice(serde_json::json!(["EdDSA", "ES256"])), Some("ES256"));
        assert_eq!(choice(serde_json::json!(["RS256", "EdDSA"])), Some("EdDSA"));
        for refused in [
            Value::Null,
            serde_json::json!([]),
            serde_json::json!(["none"]),
            serde_json::json!(["RS256", "Ed25519"]),
            serde_json::json!("ES256"),
        ] {
            assert_eq!(choice(refused.clone()), None, "{refused}");
        }
    }

    #[test]
    fn a_binding_answers_a_nonce_refusal_and_keys_only_bound_tokens() {
        let binding = Binding::generate("ES256").unwrap();
        let refusal = |error: &str, nonce: Option<&str>| crate::outbound::fetch::Failure {
            message: String::new(),
            oauth_error: Some(error.into()),
            dpop_nonce: nonce.map(str::to_owned),
        };
        assert!(!binding.takes_issuer_nonce(&refusal("invalid_grant", Some("n"))));
        assert!(!binding.takes_issuer_nonce(&refusal(USE_NONCE, None)));
        assert!(binding.takes_issuer_nonce(&refusal(USE_NONCE, Some("as-nonce"))));
        let proof = binding.token_request_proof("https://as/token").unwrap();
        assert_eq!(opened(proof.to_str().unwrap()).1["nonce"], "as-nonce");
        binding.takes_resource_nonce("rs-nonce");
        let proof = binding
            .resource_proof("POST", "https://rs/mcp", "t")
            .unwrap();
        assert_eq!(opened(proof.to_str().unwrap()).1["nonce"], "rs-nonce");
        assert!(proof.is_sensitive());
        assert!(binding.bound_key(Some("DPoP")).is_some());
        assert!(binding.bound_key(Some("dpop")).is_some());
        assert!(binding.bound_key(Some("Bearer")).is_none());
        assert!(binding.bound_key(None).is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every header member and claim RFC 9449 section 4.2 asks for,
        /// for any method, URL, token and nonce.
        #[test]
        fn every_proof_has_what_rfc_9449_asks(
            algorithm in proptest::sample::select(ALGORITHMS.to_vec()),
            method in "(GET|POST|DELETE|PUT|[A-Z]{1,8})",
            host in "[a-z][a-z0-9.-]{0,20}",
            port in proptest::option::of(1u16..),
            path in "(/[A-Za-z0-9._~-]{0,8}){0,4}",
            query in proptest::option::of("[a-z=&]{0,12}"),
            token in proptest::option::of("[A-Za-z0-9._~+/-]{1,64}"),
            nonce in proptest::option::of("[ -~]{1,32}"),
        ) {
            let key = DpopKey::generate(algorithm).unwrap();
            let authority = port.map_or(host.clone(), |p| format!("{host}:{p}"));
            let url = format!("https://{authority}{path}{}", query.map(|q| format!("?{q}#f")).unwrap_or_default());
            let proof = key.proof(&method, &url, token.as_deref(), nonce.as_deref()).unwrap();
            let (header, claims) = opened(&proof);
            prop_assert_eq!(header.typ.as_deref(), Some(PROOF_TYPE));
            prop_assert_eq!(header.alg, key.algorithm);
            prop_assert_eq!(thumbprint(header.jwk.as_ref().unwrap()), thumbprint(&key.jwk));
            // The public key alone: no private member, no extras.
            let raw = raw_header(&proof);
            let jwk = raw["jwk"].as_object().unwrap();
            let mut members: Vec<&str> = jwk.keys().map(String::as_str).collect();
            members.sort_unstable();
            let public: &[&str] = match key.algorithm {
                Algorithm::EdDSA => &["crv", "kty", "x"],
                _ => &["crv", "kty", "x", "y"],
            };
            prop_assert_eq!(members, public);
            prop_assert_eq!(claims["htm"].as_str(), Some(method.as_str()));
            let htu = claims["htu"].as_str().unwrap();
            prop_assert!(!htu.contains('?') && !htu.contains('#'), "{}", htu);
            prop_assert_eq!(Some(htu.to_owned()), target_uri(&url));
            let iat = claims["iat"].as_u64().unwrap();
            prop_assert!(iat.abs_diff(unix_now()) <= 5);
            prop_assert_eq!(claims["jti"].as_str().map(str::len), Some(43));
            match &token {
                Some(token) => prop_assert_eq!(claims["ath"].as_str(), Some(&*access_token_hash(token))),
                None => prop_assert!(claims.get("ath").is_none()),
            }
            prop_assert_eq!(claims.get("nonce").and_then(Value::as_str), nonce.as_deref());
            // The protected server's checker takes it, for this request.
            let nonces: Vec<&str> = nonce.as_deref().into_iter().collect();
            let request = crate::oauth::dpop::ProofRequest {
                access_token: token.as_deref(),
                nonces: &nonces,
                ..crate::oauth::dpop::ProofRequest::new(&method, &url, unix_now())
            };
            let checked = crate::oauth::dpop::check_proof([proof.as_bytes()], &request);
            prop_assert_eq!(checked.map(|c| c.thumbprint).ok(), thumbprint(&key.jwk));
            // A second proof for the same request is a new one.
            let again = key.proof(&method, &url, token.as_deref(), nonce.as_deref()).unwrap();
            prop_assert_ne!(&opened(&again).1["jti"], &claims["jti"]);
        }
    }
}
