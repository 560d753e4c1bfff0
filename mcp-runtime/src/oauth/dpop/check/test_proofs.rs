//! DPoP proofs made by hand, for the checker's tests, the protected
//! server's integration tests (`tests/it/dpop_server.rs` includes this
//! file by path) and the fuzz target: a P-256 key that signs any header
//! and payload, so that each test can break one member at a time.
//!
//! Only other crates are named here, never this one, so that the file
//! compiles inside the crate and in the integration tests alike.

// Each user takes the part it needs.
#![allow(dead_code)]

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::{Jwk, ThumbprintHash};
use jsonwebtoken::{Algorithm, EncodingKey};
use p256::pkcs8::EncodePrivateKey;
use serde_json::{Value, json};

/// A P-256 key that signs proofs.
pub struct TestKey {
    key: EncodingKey,
    jwk: Jwk,
}

impl TestKey {
    /// The key whose secret scalar is the SHA-256 of `seed`: the same
    /// seed, the same key.
    pub fn new(seed: &[u8]) -> Self {
        let scalar = hmac_sha256::Hash::hash(seed);
        // A hash at or past the group order has a chance of about 2^-128.
        let secret = p256::SecretKey::from_slice(&scalar).expect("a P-256 scalar");
        let der = secret.to_pkcs8_der().expect("PKCS#8 encodes");
        let key = EncodingKey::from_ec_der(der.as_bytes());
        let mut jwk = Jwk::from_encoding_key(&key, Algorithm::ES256).expect("a public JWK");
        jwk.common = Default::default();
        TestKey { key, jwk }
    }

    /// The public key as a JWK object.
    pub fn jwk(&self) -> Value {
        serde_json::to_value(&self.jwk).expect("a JWK serializes")
    }

    /// The JWK SHA-256 thumbprint: what a token bound to this key holds
    /// in `cnf.jkt`.
    pub fn thumbprint(&self) -> String {
        self.jwk
            .thumbprint(ThumbprintHash::SHA256)
            .expect("a P-256 key has a thumbprint")
    }

    /// The header of a well-formed proof by this key.
    pub fn header(&self) -> Value {
        json!({"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk()})
    }

    /// `header` and `payload` (any bytes) signed with ES256 as a compact
    /// JWS, whatever the header says.
    pub fn sign(&self, header: &Value, payload: &[u8]) -> String {
        let header = URL_SAFE_NO_PAD.encode(serde_json::to_vec(header).expect("JSON"));
        let message = format!("{header}.{}", URL_SAFE_NO_PAD.encode(payload));
        let signature = jsonwebtoken::crypto::sign(message.as_bytes(), &self.key, Algorithm::ES256)
            .expect("ES256 signs");
        format!("{message}.{signature}")
    }

    /// A well-formed proof with `claims`.
    pub fn proof(&self, claims: &Value) -> String {
        self.sign(&self.header(), &serde_json::to_vec(claims).expect("JSON"))
    }
}

/// The claims of a proof for a `method` request to `url` made at `iat`,
/// with `ath` when it goes with `access_token`.
pub fn claims(jti: &str, method: &str, url: &str, iat: u64, access_token: Option<&str>) -> Value {
    let mut claims = json!({"jti": jti, "htm": method, "htu": url, "iat": iat});
    if let Some(token) = access_token {
        claims["ath"] = json!(URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(token.as_bytes())));
    }
    claims
}
