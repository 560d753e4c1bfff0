//! Proof Key for Code Exchange (RFC 7636) with S256, and the `state` that
//! ties a redirect to the request that caused it.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::client::ClientError;

/// A code verifier and its S256 challenge.
pub(super) struct Pkce {
    pub(super) verifier: String,
    pub(super) challenge: String,
}

impl Pkce {
    pub(super) fn new() -> Result<Self, ClientError> {
        // 32 random bytes: 43 characters, the shortest verifier allowed.
        let verifier = random_token()?;
        let challenge = URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(verifier.as_bytes()));
        Ok(Pkce {
            verifier,
            challenge,
        })
    }
}

/// 256 random bits, base64url: a verifier, a `state`, a `jti`.
pub(super) fn random_token() -> Result<String, ClientError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ClientError::Authorization(format!("no randomness: {e}")))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_challenge_is_the_rfc_7636_s256_of_the_verifier() {
        // RFC 7636 appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(verifier.as_bytes()));
        assert_eq!(challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
        let pkce = Pkce::new().unwrap();
        assert_eq!(pkce.verifier.len(), 43);
        assert_ne!(pkce.verifier, Pkce::new().unwrap().verifier);
    }
}
